import { DueHeap } from './heap';

describe('DueHeap', () => {
  it('pops only what is due, earliest first', () => {
    const h = new DueHeap();
    const times = [50, 10, 40, 30, 20, 60, 10];
    times.forEach((t, i) => h.push(t, i + 1));
    expect(h.popDue(35)).toEqual(expect.arrayContaining([2, 7, 5, 4]));
    expect(h.size).toBe(3);
    expect(h.peek()).toBe(40);
    expect(h.popDue(100, 2)).toEqual([3, 1]);
    expect(h.popDue(100)).toEqual([6]);
    expect(h.size).toBe(0);
  });

  it('keeps order over many random pushes', () => {
    const h = new DueHeap();
    const due: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const t = Math.floor(Math.random() * 10_000);
      due.push(t);
      h.push(t, i);
    }
    const out = h.popDue(Infinity);
    const outTimes = out.map((id) => due[id]!);
    expect(outTimes).toEqual([...outTimes].sort((a, b) => a - b));
  });

  it('pops due entries with their due times', () => {
    const h = new DueHeap();
    h.push(30, 1);
    h.push(10, 2);
    h.push(20, 3);
    expect(h.popDueEntries(25)).toEqual([
      [10, 2],
      [20, 3],
    ]);
    expect(h.popDueEntries(25)).toEqual([]);
    expect(h.size).toBe(1);
  });
});
