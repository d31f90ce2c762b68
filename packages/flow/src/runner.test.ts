import { DuePoller } from './poller';
import { step, type Work } from './pipeline';
import { BUSY, FlowRunner, NOT_DUE, type FlowChannel, type StepStore } from './runner';

interface Row {
  id: number;
  next_at: Date | null;
  lease: string | null;
  sent: number;
}

/** Rows in a Map behaving as the conditional updates on MongoDB do: a row changes only while still as read. */
class MemoryStore implements StepStore<Row> {
  rows = new Map<number, Row>();
  private leases = 0;
  ref = (r: Row) => r.id;
  async due(now: Date, limit: number) {
    return [...this.rows.values()]
      .filter((r) => r.next_at && r.next_at <= now)
      .sort((a, b) => a.next_at!.getTime() - b.next_at!.getTime())
      .slice(0, limit)
      .map((r) => r.id);
  }
  async readDue(refs: number[], now: Date) {
    return refs.map((r) => this.rows.get(r)).filter((r): r is Row => !!r?.next_at && r.next_at <= now).map((r) => ({ ...r }));
  }
  async take(rows: Row[], until: Date) {
    const leaseId = `lease-${++this.leases}`;
    const taken = rows.filter((r) => {
      const now = this.rows.get(r.id)!;
      if (now.next_at?.getTime() !== r.next_at?.getTime() || now.lease !== r.lease) return false;
      this.rows.set(r.id, { ...now, next_at: until, lease: leaseId });
      return true;
    });
    return { leaseId, taken };
  }
}

type W = Work<Row> & { sent?: boolean };

function channel(store: MemoryStore, send: (w: W) => Promise<boolean>, extra: Partial<FlowChannel<Row, W>> = {}): FlowChannel<Row, W> {
  return {
    name: 'test',
    store,
    gate: async () => ({ settings: undefined }),
    work: (row) => ({ ref: row.id, row }),
    steps: [
      step<W>('send', async (open, ctx) => {
        await Promise.all(
          open.map(async (w) => {
            w.sent = await send(w);
            w.outcome = w.sent ? 'sent' : 'failed';
            w.nextAt = w.sent && w.row.sent === 0 ? new Date(ctx.now.getTime() + 1_000) : null;
          }),
        );
        ctx.release();
      }),
    ],
    recorder: {
      async finish(works, lease) {
        for (const w of works) {
          const r = store.rows.get(w.ref)!;
          if (r.lease !== lease.leaseId) continue;
          store.rows.set(w.ref, { ...r, lease: null, next_at: w.nextAt ?? null, sent: r.sent + (w.sent ? 1 : 0) });
        }
      },
    },
    ...extra,
  };
}

const logger = { error: jest.fn(), warn: jest.fn() };
let clock = new Date(10_000);
const now = () => clock;

beforeEach(() => {
  clock = new Date(10_000);
});

function seed(store: MemoryStore, n: number, at = new Date(9_000)) {
  for (let i = 1; i <= n; i++) store.rows.set(i, { id: i, next_at: at, lease: null, sent: 0 });
}

describe('FlowRunner', () => {
  it('runs a burst and one contact the same way, and schedules the next step', async () => {
    const store = new MemoryStore();
    seed(store, 3);
    const scheduled: [number, number][] = [];
    const runner = new FlowRunner(
      channel(store, async () => true, { schedule: async (ref, at) => void scheduled.push([ref, at.getTime()]) }),
      { leaseMs: 60_000, now, logger },
    );
    expect(Object.fromEntries(await runner.processBurst([1, 2]))).toEqual({ 1: 'sent', 2: 'sent' });
    expect(await runner.process(3)).toBe('sent');
    expect(await runner.process(3)).toBe(NOT_DUE);
    expect([...store.rows.values()].map((r) => [r.sent, r.next_at?.getTime(), r.lease])).toEqual([
      [1, 11_000, null],
      [1, 11_000, null],
      [1, 11_000, null],
    ]);
    expect(scheduled).toEqual([
      [1, 11_000],
      [2, 11_000],
      [3, 11_000],
    ]);
  });

  it('sends a step once when two runners reach it together (the lease decides)', async () => {
    const store = new MemoryStore();
    seed(store, 20);
    let sends = 0;
    const mk = () => new FlowRunner(channel(store, async () => (sends++, true)), { leaseMs: 60_000, now, logger });
    const [a, b] = [mk(), mk()];
    const refs = Array.from({ length: 20 }, (_, i) => i + 1);
    const [oa, ob] = await Promise.all([a.processBurst(refs), b.processBurst(refs)]);
    expect(sends).toBe(20);
    for (const ref of refs) expect([oa.get(ref), ob.get(ref)].filter((o) => o === 'sent')).toHaveLength(1);
  });

  it("gives the steps the lease id the store wrote on the burst's rows, and one lease per burst", async () => {
    const store = new MemoryStore();
    seed(store, 3);
    const seen: { id: string; onRows: (string | null)[] }[] = [];
    const runner = new FlowRunner(
      channel(store, async () => true, {
        steps: [
          step<W>('look', async (open, ctx) => {
            seen.push({ id: ctx.leaseId, onRows: open.map((w) => store.rows.get(w.ref)!.lease) });
            for (const w of open) w.outcome = 'looked';
          }),
        ],
      }),
      { leaseMs: 60_000, now, logger },
    );
    await runner.processBurst([1, 2]);
    await runner.process(3);
    expect(seen).toEqual([
      { id: 'lease-1', onRows: ['lease-1', 'lease-1'] },
      { id: 'lease-2', onRows: ['lease-2'] },
    ]);
  });

  it('answers busy for a key a burst of the same runner holds', async () => {
    const store = new MemoryStore();
    seed(store, 1);
    let open = () => undefined as void;
    const gate = new Promise<void>((r) => (open = r));
    const runner = new FlowRunner(channel(store, async () => (await gate, true)), { leaseMs: 60_000, now, logger });
    const first = runner.process(1);
    await new Promise((r) => setImmediate(r));
    expect(await runner.process(1)).toBe(BUSY);
    open();
    expect(await first).toBe('sent');
  });

  it('takes no lease when the gate decides for every due row', async () => {
    const store = new MemoryStore();
    seed(store, 2);
    const send = jest.fn(async () => true);
    const runner = new FlowRunner(
      channel(store, send, { gate: async (rows) => ({ decided: new Map(rows.map((r) => [r.id, 'held_for_blackout'])) }) }),
      { leaseMs: 60_000, now, logger },
    );
    expect(Object.fromEntries(await runner.processBurst([1, 2]))).toEqual({ 1: 'held_for_blackout', 2: 'held_for_blackout' });
    expect(send).not.toHaveBeenCalled();
    expect([...store.rows.values()].every((r) => r.lease === null)).toBe(true);
  });

  it('finds nothing due for a while after the gate said nothing can be sent, so a poller does not spin on those rows', async () => {
    const store = new MemoryStore();
    seed(store, 3);
    const runner = new FlowRunner(
      channel(store, async () => true, { gate: async (rows) => ({ decided: new Map(rows.map((r) => [r.id, 'not_configured'])), pauseMs: 60_000 }) }),
      { leaseMs: 60_000, now, logger },
    );
    expect(await runner.due(10)).toEqual([1, 2, 3]);
    expect(Object.fromEntries(await runner.processBurst([1, 2, 3]))).toEqual({ 1: 'not_configured', 2: 'not_configured', 3: 'not_configured' });
    expect(await runner.due(10)).toEqual([]);
  });

  it('leaves the steps of a failed burst busy and leased, for the lease to bring back', async () => {
    const store = new MemoryStore();
    seed(store, 2);
    const runner = new FlowRunner(
      channel(store, async () => {
        throw new Error('database gone');
      }),
      { leaseMs: 60_000, now, logger },
    );
    expect(Object.fromEntries(await runner.processBurst([1, 2]))).toEqual({ 1: BUSY, 2: BUSY });
    expect(logger.error).toHaveBeenCalled();
    expect([...store.rows.values()].map((r) => r.next_at?.getTime())).toEqual([70_000, 70_000]);
    clock = new Date(70_000);
    const retry = new FlowRunner(channel(store, async () => true), { leaseMs: 60_000, now, logger });
    expect(Object.fromEntries(await retry.processBurst([1, 2]))).toEqual({ 1: 'sent', 2: 'sent' });
  });
});

describe('DuePoller', () => {
  it('works off a backlog in bursts, looking again at once after a full round', async () => {
    const store = new MemoryStore();
    seed(store, 25);
    const bursts: number[] = [];
    const runner = new FlowRunner(channel(store, async () => true), { leaseMs: 60_000, now, logger });
    const spy = jest.spyOn(runner, 'processBurst');
    const poller = new DuePoller(runner, { everyMs: 60_000, burst: 5, bursts: 2, logger });
    poller.start();
    const deadline = Date.now() + 5_000;
    while ([...store.rows.values()].some((r) => r.sent === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    poller.stop();
    for (const call of spy.mock.calls) bursts.push(call[0].length);
    expect([...store.rows.values()].every((r) => r.sent === 1)).toBe(true);
    // 25 due: five bursts of five, never more than a burst's size, without waiting the minute between looks.
    expect(bursts).toEqual([5, 5, 5, 5, 5]);
  });

  it('looks when a row it was told of falls due, idle or in the middle of a look, not at the idle cap', async () => {
    // Each look's answer comes 150 ms after the rows were read, as a query in flight.
    class SlowStore extends MemoryStore {
      override async due(now: Date, limit: number) {
        const found = await super.due(now, limit);
        await new Promise((r) => setTimeout(r, 150));
        return found;
      }
    }
    const store = new SlowStore();
    const runner = new FlowRunner(channel(store, async () => true), { leaseMs: 60_000, logger });
    const poller = new DuePoller(runner, { everyMs: 10, idleMs: 10_000, burst: 5, bursts: 1, logger });
    const sentAt = async (id: number) => {
      const deadline = Date.now() + 3_000;
      while (store.rows.get(id)!.sent === 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      return Date.now();
    };
    poller.start();
    await new Promise((r) => setTimeout(r, 250)); // the first look found nothing: the next is 10 s away
    // Idle: a row due in 100 ms. Rows at their last step (one sent before: no step after this one), so no later
    // step of theirs brings a look of its own.
    const firstDue = Date.now() + 100;
    store.rows.set(1, { id: 1, next_at: new Date(firstDue), lease: null, sent: 1 });
    poller.wakeAt(new Date(firstDue));
    const first = await sentAt(1);
    await new Promise((r) => setTimeout(r, 400)); // the looks after the send found nothing: idle again
    // During a look that will find nothing (it read before the row was written): a row due in 200 ms.
    poller.wake();
    await new Promise((r) => setTimeout(r, 50));
    const secondDue = Date.now() + 200;
    store.rows.set(2, { id: 2, next_at: new Date(secondDue), lease: null, sent: 1 });
    poller.wakeAt(new Date(secondDue));
    const second = await sentAt(2);
    poller.stop();
    expect(store.rows.get(1)!.sent).toBe(2);
    expect(store.rows.get(2)!.sent).toBe(2);
    // Each sent one look's 150 ms (and the timers' slack) after it fell due, where the idle cap was 10 s.
    expect(first - firstDue).toBeLessThan(400);
    expect(second - secondDue).toBeLessThan(400);
  });

  it('remembers every due time it was told of: two rows due 600 ms apart in an idle stretch are each sent when due', async () => {
    const store = new MemoryStore();
    const runner = new FlowRunner(channel(store, async () => true), { leaseMs: 60_000, logger });
    const poller = new DuePoller(runner, { everyMs: 10, idleMs: 10_000, burst: 5, bursts: 1, logger });
    poller.start();
    await new Promise((r) => setTimeout(r, 50)); // the first look found nothing: the next idle one is 10 s away
    const dues = [Date.now() + 300, Date.now() + 900];
    dues.forEach((at, i) => {
      store.rows.set(i + 1, { id: i + 1, next_at: new Date(at), lease: null, sent: 1 });
      poller.wakeAt(new Date(at));
    });
    const sentAt: number[] = [];
    const deadline = Date.now() + 3_000;
    while (sentAt.length < 2 && Date.now() < deadline) {
      for (const id of [1, 2]) if (store.rows.get(id)!.sent === 2 && sentAt[id - 1] === undefined) sentAt[id - 1] = Date.now();
      await new Promise((r) => setTimeout(r, 5));
    }
    poller.stop();
    expect([0, 1].map((i) => sentAt[i] !== undefined)).toEqual([true, true]);
    expect(sentAt.map((t, i) => t - dues[i]!).every((late) => late >= 0 && late < 200)).toBe(true);
  });

  it('rows told of within one period share a look (no sooner than a period after the first was told)', async () => {
    const store = new MemoryStore();
    const runner = new FlowRunner(channel(store, async () => true), { leaseMs: 60_000, logger });
    const bursts = jest.spyOn(runner, 'processBurst');
    const poller = new DuePoller(runner, { everyMs: 200, idleMs: 10_000, burst: 5, bursts: 1, logger });
    poller.start();
    await new Promise((r) => setTimeout(r, 50)); // the first look found nothing: the next is 10 s away
    const t0 = Date.now();
    for (const id of [1, 2, 3]) {
      store.rows.set(id, { id, next_at: new Date(), lease: null, sent: 1 });
      poller.wakeAt(new Date());
      await new Promise((r) => setTimeout(r, 20));
    }
    const deadline = Date.now() + 3_000;
    while ([...store.rows.values()].some((r) => r.sent === 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const took = Date.now() - t0;
    poller.stop();
    expect(bursts.mock.calls.map((c) => c[0].length)).toEqual([3]);
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1_000);
  });

  it('with nothing waiting, looks once per idle period, and at once when woken', async () => {
    const store = new MemoryStore();
    const runner = new FlowRunner(channel(store, async () => true), { leaseMs: 60_000, logger });
    const looks = jest.spyOn(store, 'due');
    const poller = new DuePoller(runner, { everyMs: 10, idleMs: 300, burst: 5, bursts: 1, logger });
    poller.start();
    await new Promise((r) => setTimeout(r, 1_000));
    // 1 s at a 300 ms idle period: four looks (every 10 ms would have been about a hundred).
    expect(looks.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(looks.mock.calls.length).toBeLessThanOrEqual(5);
    store.rows.set(1, { id: 1, next_at: new Date(Date.now() - 1), lease: null, sent: 0 });
    poller.wake();
    await new Promise((r) => setTimeout(r, 100));
    poller.stop();
    expect(store.rows.get(1)!.sent).toBe(1);
  });
});
