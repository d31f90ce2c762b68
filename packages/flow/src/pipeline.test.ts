import { runPipeline, step, type BurstContext, type Work } from './pipeline';
import { nextStepAt, pendingSteps } from './schedule';

const ctx: BurstContext = { now: new Date(0), leaseId: 'lease-1', leaseUntil: new Date(60_000), release: () => undefined, settings: undefined };
const works = (...refs: number[]): Work<null>[] => refs.map((ref) => ({ ref, row: null }));

describe('runPipeline', () => {
  it('gives each step only the works no earlier step decided', async () => {
    const seen: number[][] = [];
    const all = works(1, 2, 3, 4);
    await runPipeline(
      all,
      [
        step('rules', async (open) => {
          seen.push(open.map((w) => w.ref));
          open[0]!.outcome = 'stopped';
        }),
        step('claim', async (open) => {
          seen.push(open.map((w) => w.ref));
          for (const w of open) if (w.ref % 2 === 0) w.outcome = 'skipped_duplicate';
        }),
        step('send', async (open) => {
          seen.push(open.map((w) => w.ref));
          for (const w of open) w.outcome = 'sent';
        }),
      ],
      ctx,
    );
    expect(seen).toEqual([[1, 2, 3, 4], [2, 3, 4], [3]]);
    expect(all.map((w) => w.outcome)).toEqual(['stopped', 'skipped_duplicate', 'sent', 'skipped_duplicate']);
  });

  it('stops once every work is decided', async () => {
    const later = jest.fn(async () => undefined);
    const all = works(1);
    await runPipeline(all, [step('rules', async (open) => void (open[0]!.outcome = 'finished')), step('send', later)], ctx);
    expect(later).not.toHaveBeenCalled();
  });
});

describe('scheduling the next step', () => {
  it('is the next step’s delay after the send, in the channel’s unit', () => {
    expect(nextStepAt(new Date(1_000), { delay: 3 }, 60_000)).toEqual(new Date(181_000));
    expect(nextStepAt(new Date(1_000), undefined, 60_000)).toBeNull();
  });

  it('takes the first step not done and the one after it', () => {
    const steps = [{ id: 1 }, { id: 2 }, { id: 3 }];
    expect(pendingSteps(steps, (s) => s.id === 1)).toEqual({ current: { id: 2 }, following: { id: 3 } });
    expect(pendingSteps(steps, (s) => s.id !== 3)).toEqual({ current: { id: 3 }, following: undefined });
    expect(pendingSteps(steps, () => true)).toEqual({ current: undefined, following: undefined });
  });
});
