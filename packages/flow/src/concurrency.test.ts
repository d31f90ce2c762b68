import { countdown, eachReleasing, once } from './concurrency';

/** A promise and the function that resolves it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

describe('eachReleasing', () => {
  it('starts the next item when a running one releases its place, and resolves only once every run has ended', async () => {
    const started: number[] = [];
    const ends = [gate(), gate(), gate()];
    const releases: (() => void)[] = [];
    let allReleased = 0;
    let resolved = false;
    const all = eachReleasing(
      [0, 1, 2],
      2,
      async (i, release) => {
        started.push(i);
        releases[i] = release;
        await ends[i]!.wait;
      },
      () => (allReleased += 1),
    ).then(() => (resolved = true));
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    releases[0]!(); // item 0 has had its first answers; its retries go on
    releases[0]!(); // twice is once
    expect(started).toEqual([0, 1, 2]);
    ends[1]!.open(); // item 1 ends without releasing first: its end releases it
    await new Promise((r) => setImmediate(r));
    expect(allReleased).toBe(0);
    releases[2]!(); // every place given back, though item 0 is still running
    expect(allReleased).toBe(1);
    ends[2]!.open();
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false); // item 0 is still running
    ends[0]!.open();
    await all;
    expect(resolved).toBe(true);
  });
});

describe('eachReleasing with a run that fails', () => {
  it('still runs the others, and rejects with that error once all have ended', async () => {
    const ran: number[] = [];
    await expect(
      eachReleasing([0, 1, 2], 1, async (i) => {
        ran.push(i);
        if (i === 1) throw new Error('burst 1 failed');
      }),
    ).rejects.toThrow('burst 1 failed');
    expect(ran).toEqual([0, 1, 2]);
  });
});

describe('countdown', () => {
  it('calls once when every distinct item was counted, and at once for none', () => {
    let done = 0;
    const count = countdown<string>(2, () => (done += 1));
    count('a');
    count('a');
    expect(done).toBe(0);
    count('b');
    count('b');
    expect(done).toBe(1);
    let none = 0;
    countdown(0, () => (none += 1));
    expect(none).toBe(1);
  });
});

describe('once', () => {
  it('calls the function the first time only', () => {
    let n = 0;
    const f = once(() => (n += 1));
    f();
    f();
    expect(n).toBe(1);
  });
});
