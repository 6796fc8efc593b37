/**
 * A CPython 3.11 set of small non-negative ints, slot for slot
 * (Objects/setobject.c: open addressing, linear probes, perturbation,
 * resize rules, merge fast paths). Nova computes CPU pinning by iterating
 * sets of host CPUs, so the order a pinned guest gets its host CPUs in is
 * the order of these tables (the free siblings {5, 13} give 13 first).
 * hash(n) == n for the ints used here.
 */
const MINSIZE = 8;
const LINEAR_PROBES = 9;
const PERTURB_SHIFT = 5;
const EMPTY = -1;
const DUMMY = -2;
const SCRATCH = new Int32Array(8);
const NO_VALUES: number[] = [];

export class PySet {
  /** Slot -> key, EMPTY or DUMMY. */
  private table: Int32Array;
  private mask: number;
  private fill = 0;
  private used = 0;
  /** values() until the next change. */
  private order: number[] | null = null;
  /** orderOfSubset caches; sets that are shared are never changed. */
  private selfOrder: number[] | null = null;
  private singles: Map<number, number[]> | null = null;

  constructor() {
    this.table = new Int32Array(MINSIZE).fill(EMPTY);
    this.mask = MINSIZE - 1;
  }

  get size(): number {
    return this.used;
  }

  /** set(iterable) of a list or generator: one add per item, in order. */
  static of(items: Iterable<number>): PySet {
    const s = new PySet();
    for (const x of items) s.add(x);
    return s;
  }

  /** set(other) / set().update(other) for another set: set_merge into an empty set. */
  static copyOf(other: PySet): PySet {
    const s = new PySet();
    s.merge(other);
    return s;
  }

  /**
   * What a SetOfIntegersField does with a value on assignment
   * (oslo.versionedobjects' Set.coerce): a plain set built by adding the
   * value's items in its order, merged into a new empty set.
   */
  static coerce(value: PySet): PySet {
    return PySet.copyOf(PySet.of(value.values()));
  }

  /** The slot holding `key`, or -1: set_lookkey's probe sequence, stopping at the first empty slot. */
  private slotOf(key: number): number {
    const mask = this.mask;
    let i = key & mask;
    let perturb = key;
    for (;;) {
      let probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
      let j = i;
      do {
        const k = this.table[j];
        if (k === EMPTY) return -1;
        if (k === key) return j;
        j++;
      } while (probes--);
      perturb = Math.floor(perturb / 32);
      i = (i * 5 + 1 + perturb) & mask;
    }
  }

  has(key: number): boolean {
    return this.slotOf(key) >= 0;
  }

  add(key: number): void {
    this.order = null;
    this.selfOrder = null;
    this.singles = null;
    for (;;) {
      const mask = this.mask;
      let i = key & mask;
      let perturb = key;
      // 3.11 keeps the last dummy slot it passed and fills that one.
      let freeslot = -1;
      for (;;) {
        let probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        let j = i;
        do {
          const k = this.table[j];
          if (k === EMPTY) {
            if (freeslot >= 0) {
              this.used++;
              this.table[freeslot] = key;
              return;
            }
            this.fill++;
            this.used++;
            this.table[j] = key;
            if (this.fill * 5 < mask * 3) return;
            this.resize(this.used > 50000 ? this.used * 2 : this.used * 4);
            return;
          }
          if (k === key) return;
          if (k === DUMMY) freeslot = j;
          j++;
        } while (probes--);
        perturb = Math.floor(perturb / 2 ** PERTURB_SHIFT);
        i = (i * 5 + 1 + perturb) & mask;
      }
    }
  }

  discard(key: number): void {
    this.order = null;
    this.selfOrder = null;
    this.singles = null;
    const j = this.slotOf(key);
    if (j < 0) return;
    this.table[j] = DUMMY;
    this.used--;
  }

  private static insertClean(table: Int32Array, mask: number, key: number): void {
    let i = key & mask;
    let perturb = key;
    for (;;) {
      if (table[i] === EMPTY) {
        table[i] = key;
        return;
      }
      if (i + LINEAR_PROBES <= mask) {
        for (let j = 1; j <= LINEAR_PROBES; j++) {
          if (table[i + j] === EMPTY) {
            table[i + j] = key;
            return;
          }
        }
      }
      perturb = Math.floor(perturb / 2 ** PERTURB_SHIFT);
      i = (i * 5 + 1 + perturb) & mask;
    }
  }

  private resize(minused: number): void {
    this.order = null;
    this.selfOrder = null;
    this.singles = null;
    let newsize = MINSIZE;
    while (newsize <= minused) newsize *= 2;
    // A small table without dummies is left as it is.
    if (newsize === MINSIZE && this.mask === MINSIZE - 1 && this.fill === this.used) return;
    const old = this.table;
    this.table = new Int32Array(newsize).fill(EMPTY);
    this.mask = newsize - 1;
    this.fill = this.used;
    for (let j = 0; j < old.length; j++) {
      const k = old[j];
      if (k >= 0) PySet.insertClean(this.table, this.mask, k);
    }
  }

  /** set_merge: update() / |= with another set. */
  merge(other: PySet): void {
    this.order = null;
    this.selfOrder = null;
    this.singles = null;
    if (other === this || other.used === 0) return;
    if ((this.fill + other.used) * 5 >= this.mask * 3) this.resize((this.used + other.used) * 2);
    if (this.fill === 0 && this.mask === other.mask && other.fill === other.used) {
      this.table.set(other.table);
      this.fill = other.fill;
      this.used = other.used;
      return;
    }
    if (this.fill === 0) {
      this.fill = other.used;
      this.used = other.used;
      for (let j = 0; j <= other.mask; j++) {
        const k = other.table[j];
        if (k >= 0) PySet.insertClean(this.table, this.mask, k);
      }
      return;
    }
    for (let j = 0; j <= other.mask; j++) {
      const k = other.table[j];
      if (k >= 0) this.add(k);
    }
  }

  /** Iteration order: table order. The array is shared: do not change it. */
  values(): number[] {
    if (this.order) return this.order;
    const out: number[] = [];
    const t = this.table;
    for (let j = 0; j < t.length; j++) if (t[j] >= 0) out.push(t[j]);
    this.order = out;
    return out;
  }

  [Symbol.iterator](): Iterator<number> {
    return this.values()[Symbol.iterator]();
  }

  /**
   * The iteration order of set(values) (one add per item, in order),
   * without building the set when it stays in the smallest table.
   */
  static orderOf(values: number[]): number[] {
    if (values.length > 4) return PySet.of(values).values();
    const t = SCRATCH.fill(EMPTY);
    for (const key of values) {
      let i = key & 7;
      let perturb = key;
      // mask 7: no linear probes (i + 9 > 7), straight to perturbation
      while (t[i] !== EMPTY && t[i] !== key) {
        perturb = Math.floor(perturb / 32);
        i = (i * 5 + 1 + perturb) & 7;
      }
      t[i] = key;
    }
    const out: number[] = [];
    for (let j = 0; j < 8; j++) if (t[j] !== EMPTY) out.push(t[j]);
    return out;
  }

  /**
   * Iteration order of set(values) for `values` taken from this set in its
   * order (one item, all items, or some): what `this & free` gives when
   * `this` is the smaller set. Whole and single-item answers are kept
   * (sibling sets are shared between hosts), so they cost nothing twice.
   */
  orderOfSubset(values: number[]): number[] {
    if (values.length === 0) return NO_VALUES;
    if (values.length === this.used) {
      this.selfOrder ??= PySet.orderOf(this.values());
      return this.selfOrder;
    }
    if (values.length === 1) {
      this.singles ??= new Map();
      let one = this.singles.get(values[0]);
      if (!one) this.singles.set(values[0], (one = [values[0]]));
      return one;
    }
    return PySet.orderOf(values);
  }

  /** Iteration order of `this & other`, without building the set when it is small. */
  andValues(other: PySet): number[] {
    let big: PySet = this;
    let small: PySet = other;
    if (other.used > this.used) {
      big = other;
      small = this;
    }
    const kept: number[] = [];
    const t = small.table;
    for (let j = 0; j < t.length; j++) if (t[j] >= 0 && big.has(t[j])) kept.push(t[j]);
    return PySet.orderOf(kept);
  }

  /** set_intersection: walks the smaller set, adding what the other holds. */
  and(other: PySet): PySet {
    if (other === this) return PySet.copyOf(this);
    let big: PySet = this;
    let small: PySet = other;
    if (other.used > this.used) {
      big = other;
      small = this;
    }
    const result = new PySet();
    for (const k of small.values()) if (big.has(k)) result.add(k);
    return result;
  }

  /** set_difference: copy-and-discard when this is much larger, else walk this. */
  minus(other: PySet): PySet {
    if (this.used >> 2 > other.used) {
      const result = PySet.copyOf(this);
      for (const k of other.values()) result.discard(k);
      return result;
    }
    const result = new PySet();
    for (const k of this.values()) if (!other.has(k)) result.add(k);
    return result;
  }

  /** set_difference_update (-=): discard other's items, then drop dummies past a quarter. */
  differenceUpdate(other: PySet): void {
    this.order = null;
    this.selfOrder = null;
    this.singles = null;
    if (other === this) {
      const fresh = new PySet();
      this.table = fresh.table;
      this.mask = fresh.mask;
      this.fill = 0;
      this.used = 0;
      return;
    }
    const from = other.used >> 3 > this.used ? this.and(other) : other;
    for (const k of from.values()) this.discard(k);
    if (this.fill - this.used <= Math.floor(this.mask / 4)) return;
    this.resize(this.used > 50000 ? this.used * 2 : this.used * 4);
  }

  /** set_or: copy of this, then merge other. */
  or(other: PySet): PySet {
    const result = PySet.copyOf(this);
    result.merge(other);
    return result;
  }

  sorted(): number[] {
    return [...this.values()].sort((a, b) => a - b);
  }
}
