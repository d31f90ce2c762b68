import { runPipeline, type BurstContext } from '../pipeline';
import { frequencyCapDecision, type RecentTouch } from './frequency-cap';
import { quietHoursDecision } from './quiet-hours';
import { HELD, timingStep, type TimedWork } from './step';
import { recipientZone } from './zone';

interface Row {
  id: number;
  phone: string;
}
type W = TimedWork<Row>;

const now = new Date('2026-01-14T16:00:00Z'); // 03:00 in Sydney, 11:00 in New York
const ctx: BurstContext<undefined> = {
  now,
  leaseId: 'lease-1',
  leaseUntil: new Date(now.getTime() + 60_000),
  release: () => undefined,
  settings: undefined,
};
const work = (id: number, phone: string): W => ({ ref: id, row: { id, phone } });

describe('timing rules as pipeline steps', () => {
  it('holds what a rule holds (due again at its end, with the reason) and lets the rest go on to the next step', async () => {
    const touches = new Map<number, RecentTouch[]>([
      [3, [{ channel: 'email', sentAt: new Date(now.getTime() - 30 * 60_000) }]],
    ]);
    const sent: number[] = [];
    const works = [work(1, '+61412345678'), work(2, '+12125550100'), work(3, '+14155550100')];
    await runPipeline(
      works,
      [
        timingStep<W>('quiet-hours', (open, c) =>
          open.map((w) =>
            quietHoursDecision(
              c.now,
              { enabled: true, startHour: 22, endHour: 8 },
              recipientZone({ phone: w.row.phone }, 'UTC'),
            ),
          ),
        ),
        timingStep<W>('frequency-cap', (open, c) =>
          open.map((w) => frequencyCapDecision(c.now, { hours: 2 }, touches.get(w.ref) ?? [])),
        ),
        {
          name: 'send',
          run: async (open) => {
            for (const w of open) {
              sent.push(w.ref);
              w.outcome = 'sent';
            }
          },
        },
      ],
      ctx,
    );
    expect(sent).toEqual([2]);
    expect(works[0]).toMatchObject({
      outcome: HELD,
      nextAt: new Date('2026-01-14T21:00:00Z'),
      held: { rule: 'quiet_hours' },
    });
    expect(works[2]).toMatchObject({
      outcome: HELD,
      nextAt: new Date('2026-01-14T17:30:00Z'),
      held: { rule: 'frequency_cap' },
    });
    expect(works[1]!.held).toBeUndefined();
  });
});
