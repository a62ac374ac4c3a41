import { monotonicMs } from "./clock.js";
/** A call waiting for its deadline: `expire` runs once at `at` (a monotonicMs() reading) unless the call settled first. */
export interface Deadline {
  readonly at: number;
  pending: boolean;
  expire(): void;
}

/**
 * One timer for the deadlines of every call in flight, instead of a setTimeout and clearTimeout per
 * call (the largest fixed cost of a small call after hashing). The timer is armed for the earliest
 * pending deadline; a call that settles just marks its entry, so back-to-back calls with the same
 * timeout never touch the timer. It keeps the process alive exactly while a call is pending, as a
 * per-call timer would: a tool that never settles still gets its TIMEOUT.
 */
export class DeadlineQueue {
  /** Sorted by `at`, earliest first; settled entries are dropped from the front or compacted away. */
  private entries: Deadline[] = [];
  private pendingCount = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires (Infinity when it is not armed). */
  private armedAt = Infinity;

  add(deadline: Deadline): void {
    const entries = this.entries;
    let i = entries.length;
    while (i > 0 && entries[i - 1]!.at > deadline.at) i--;
    if (i === entries.length) entries.push(deadline);
    else entries.splice(i, 0, deadline);
    this.pendingCount += 1;
    if (deadline.at < this.armedAt) this.arm(deadline.at);
    else if (this.pendingCount === 1) this.timer!.ref();
  }

  /** Whether the timer keeps the process alive now: exactly while some deadline is pending. */
  get holdsProcess(): boolean {
    return this.timer !== undefined && this.timer.hasRef();
  }

  /** The call settled before its deadline. */
  settle(deadline: Deadline): void {
    if (!deadline.pending) return;
    deadline.pending = false;
    this.pendingCount -= 1;
    this.drop();
    if (this.pendingCount === 0) this.timer?.unref();
  }

  private drop(): void {
    const entries = this.entries;
    while (entries.length > 0 && !entries[0]!.pending) entries.shift();
    // Calls settling out of order (a slow call in front) leave settled entries behind: compact them.
    if (entries.length > 64 && entries.length > 2 * this.pendingCount) this.entries = entries.filter((d) => d.pending);
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(this.fire, Math.max(0, Math.ceil(at - monotonicMs())));
    if (this.pendingCount === 0) this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = monotonicMs();
    // this.entries, not a local: an expiry can start or settle other calls (an abort listener).
    while (this.entries.length > 0 && (!this.entries[0]!.pending || this.entries[0]!.at <= now)) {
      const due = this.entries.shift()!;
      if (!due.pending) continue;
      due.pending = false;
      this.pendingCount -= 1;
      due.expire();
    }
    if (this.entries.length > 0) this.arm(this.entries[0]!.at);
  };
}
