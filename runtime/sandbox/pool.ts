import type { ResolvedSandboxOptions } from "./options.js";
import { SandboxChild, type ChildSpec } from "./sandbox-child.js";
import type { RssWatchdog } from "./watchdog.js";

interface IdleEntry {
  readonly key: string;
  readonly timer: NodeJS.Timeout;
}

/** Counters for tests, benchmarks and operators. */
export interface PoolStats {
  /** Children started since the dispatcher was created. */
  readonly spawned: number;
  /** Children alive now (working, idle or starting). */
  readonly live: number;
  /** Children waiting warm. */
  readonly idle: number;
}

/**
 * Warm children, kept per key (run, tool and bundle hash: a child is never shared across runs or
 * tools). A child goes back to its key's pool after an answered request and is replaced after
 * recycleAfterCalls requests; a dead one (timeout, crash, protocol error, memory) is simply dropped.
 * At most maxIdle children wait, least recently used stopped first, each for idleTimeoutMs.
 */
export class ChildPool {
  private readonly byKey = new Map<string, SandboxChild[]>();
  /** Insertion order is use order: the first entry is the least recently used. */
  private readonly idle = new Map<SandboxChild, IdleEntry>();
  private readonly all = new Set<SandboxChild>();
  private spawned = 0;
  private closed = false;

  constructor(private readonly options: ResolvedSandboxOptions, private readonly watchdog: RssWatchdog) {}

  /** A warm child for `key`, or a new one started from `spec()`. */
  lease(key: string, spec: () => ChildSpec): SandboxChild {
    const waiting = this.byKey.get(key);
    while (waiting !== undefined && waiting.length > 0) {
      const child = waiting.pop()!;
      this.unidle(child);
      if (child.alive) {
        child.hold(true);
        return child;
      }
    }
    const child = new SandboxChild(spec());
    this.spawned += 1;
    this.all.add(child);
    child.onDeath(() => {
      this.all.delete(child);
      this.unidle(child);
    });
    this.watchdog.watch(child);
    return child;
  }

  /** Gives a child back after its request; it waits warm unless it is dead, used up, or the pool is closed. */
  release(key: string, child: SandboxChild): void {
    if (!child.alive) return;
    if (this.closed || !child.idle || child.requests >= this.options.recycleAfterCalls || this.options.maxIdle === 0) {
      child.kill({ by: "retired" });
      return;
    }
    child.hold(false);
    const timer = setTimeout(() => child.kill({ by: "retired" }), this.options.idleTimeoutMs);
    timer.unref();
    this.idle.set(child, { key, timer });
    const list = this.byKey.get(key);
    if (list === undefined) this.byKey.set(key, [child]);
    else list.push(child);
    while (this.idle.size > this.options.maxIdle) {
      const oldest = this.idle.keys().next().value as SandboxChild;
      oldest.kill({ by: "retired" });
      this.unidle(oldest);
    }
  }

  stats(): PoolStats {
    return { spawned: this.spawned, live: this.all.size, idle: this.idle.size };
  }

  /** The pids of live children, for operators and tests. */
  pids(): number[] {
    return [...this.all].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  }

  /** Stops every child now; later leases still work (a closed pool keeps no child warm). */
  close(): void {
    this.closed = true;
    for (const child of [...this.all]) child.kill({ by: "retired" });
  }

  private unidle(child: SandboxChild): void {
    const entry = this.idle.get(child);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.idle.delete(child);
    const list = this.byKey.get(entry.key);
    if (list === undefined) return;
    const at = list.indexOf(child);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byKey.delete(entry.key);
  }
}
