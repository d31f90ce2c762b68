import { timingDecisions, type TimingRecipient } from './rules';

const HOUR = 3_600_000;
const quiet = { enabled: true, startHour: 22, endHour: 8 };
const sydney = (keys: string[]): TimingRecipient => ({ zone: { zone: 'Australia/Sydney', basis: 'phone' }, quietHours: quiet, keys });

describe('timingDecisions', () => {
  // 2026-01-15 16:00Z = 03:00 in Sydney (AEDT), 11:00 in New York.
  const at = new Date('2026-01-15T16:00:00Z');

  it('holds each recipient on its own clock, reading the touches once for the burst', async () => {
    const reads: [string[], Date][] = [];
    const decisions = await timingDecisions(
      at,
      [sydney(['p:+61412345678']), { zone: { zone: 'America/New_York', basis: 'phone' }, quietHours: quiet, keys: ['p:+12125550143'] }],
      { hours: 2 },
      async (keys, since) => {
        reads.push([keys, since]);
        return [];
      },
    );
    expect(decisions[0]).toMatchObject({ action: 'hold', rule: 'quiet_hours', until: new Date('2026-01-15T21:00:00Z') });
    expect(decisions[1]).toEqual({ action: 'send' });
    expect(reads).toEqual([[['p:+61412345678', 'p:+12125550143'], new Date(at.getTime() - 2 * HOUR)]]);
  });

  it("counts only a recipient's own touches, and a cap ending in quiet hours waits for their end too", async () => {
    const touches = [
      { keys: ['e:a@example.com', 'c:f:1'], channel: 'email' as const, sentAt: new Date(at.getTime() - 30 * 60_000) },
      { keys: ['e:b@example.com'], channel: 'sms' as const, sentAt: new Date(at.getTime() - 10 * 60_000) },
    ];
    const daytime = { ...quiet, enabled: false };
    const [a, c] = await timingDecisions(
      at,
      [
        { zone: { zone: 'UTC', basis: 'integration' }, quietHours: daytime, keys: ['c:f:1'] },
        { zone: { zone: 'UTC', basis: 'integration' }, quietHours: daytime, keys: ['e:c@example.com'] },
      ],
      { hours: 1 },
      async () => touches,
    );
    expect(a).toMatchObject({ action: 'hold', rule: 'frequency_cap', until: new Date(at.getTime() + 30 * 60_000) });
    expect(c).toEqual({ action: 'send' });
    // In Sydney the cap's end (03:30) is still in the night: held until 08:00 there.
    const [s] = await timingDecisions(at, [sydney(['c:f:1'])], { hours: 1 }, async () => touches);
    expect(s).toMatchObject({ action: 'hold', rule: 'quiet_hours', until: new Date('2026-01-15T21:00:00Z') });
  });

  it('reads no touches with the cap off', async () => {
    const read = jest.fn();
    expect(await timingDecisions(at, [sydney(['c:f:1'])], { hours: null }, read)).toMatchObject([{ action: 'hold', rule: 'quiet_hours' }]);
    expect(read).not.toHaveBeenCalled();
  });
});
