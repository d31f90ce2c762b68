import { createBatcher } from './batcher';

describe('createBatcher', () => {
  it('writes calls of one turn together and answers each its own result', async () => {
    const calls: number[][] = [];
    const double = createBatcher(async (xs: number[]) => {
      calls.push(xs);
      return xs.map((x) => x * 2);
    });
    const out = await Promise.all([1, 2, 3].map(double));
    expect(out).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('gathers calls made while writes are in flight, within the batch size', async () => {
    const calls: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const echo = createBatcher(
      async (xs: number[]) => {
        calls.push(xs);
        await gate;
        return xs;
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const first = echo(0);
    await new Promise((r) => setImmediate(r));
    const rest = [1, 2, 3, 4].map(echo);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([0, 1, 2, 3, 4]);
    expect(calls).toEqual([[0], [1, 2, 3], [4]]);
  });

  it('with a linger, gathers calls of later turns into the same write', async () => {
    const calls: number[][] = [];
    const echo = createBatcher(
      async (xs: number[]) => {
        calls.push(xs);
        return xs;
      },
      { lingerMs: 50 },
    );
    const first = echo(1);
    await new Promise((r) => setImmediate(r));
    const second = echo(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(calls).toEqual([[1, 2]]);
  });

  it('rejects every call of a failed write', async () => {
    const fail = createBatcher(async () => {
      throw new Error('down');
    });
    await expect(Promise.all([fail(1), fail(2)])).rejects.toThrow('down');
  });
});
