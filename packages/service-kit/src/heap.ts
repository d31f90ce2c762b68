/** Binary min-heap of (due time, contact id): a due ticker pops what came due without asking the database. */
export class DueHeap {
  private at: number[] = [];
  private ids: number[] = [];

  get size(): number {
    return this.at.length;
  }

  push(dueAt: number, id: number): void {
    this.at.push(dueAt);
    this.ids.push(id);
    let i = this.at.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.at[p]! <= this.at[i]!) break;
      this.swap(i, p);
      i = p;
    }
  }

  peek(): number | undefined {
    return this.at[0];
  }

  /** Removes and returns up to `max` ids due at or before `now`, earliest first. */
  popDue(now: number, max = Infinity): number[] {
    const out: number[] = [];
    while (this.at.length && this.at[0]! <= now && out.length < max) out.push(this.pop());
    return out;
  }

  /** As popDue, with each id's due time: `[dueAt, id]` pairs. */
  popDueEntries(now: number, max = Infinity): [number, number][] {
    const out: [number, number][] = [];
    while (this.at.length && this.at[0]! <= now && out.length < max) {
      const dueAt = this.at[0]!;
      out.push([dueAt, this.pop()]);
    }
    return out;
  }

  clear(): void {
    this.at = [];
    this.ids = [];
  }

  private pop(): number {
    const id = this.ids[0]!;
    const lastAt = this.at.pop()!;
    const lastId = this.ids.pop()!;
    if (this.at.length) {
      this.at[0] = lastAt;
      this.ids[0] = lastId;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.at.length && this.at[l]! < this.at[m]!) m = l;
        if (r < this.at.length && this.at[r]! < this.at[m]!) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return id;
  }

  private swap(a: number, b: number): void {
    [this.at[a], this.at[b]] = [this.at[b]!, this.at[a]!];
    [this.ids[a], this.ids[b]] = [this.ids[b]!, this.ids[a]!];
  }
}
