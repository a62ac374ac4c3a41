import type { ResolvedSandboxOptions } from "./options.js";
import { SandboxChild, type ChildSpec } from "./sandbox-child.js";
import type { RssWatchdog } from "./watchdog.js";
import { monotonicMs } from "../run/clock.js";

interface IdleEntry {
  readonly key: string;
  /** monotonicMs() when it was parked. */
  readonly since: number;
}

/** Which pool a request draws from: one run's children for one tool, and that tool's spare. */
export interface PoolKey {
  /** The run and the tool: a child serves one run and one tool only. */
  readonly run: string;
  /** The tool (name, bundle hash, root): its spare has served no run yet. */
  readonly tool: string;
}

/** Counters for tests, benchmarks and operators. */
export interface PoolStats {
  /** Children started since the dispatcher was created (spares included). */
  readonly spawned: number;
  /** Children alive now (working, idle or starting). */
  readonly live: number;
  /** Children waiting warm, spares included. */
  readonly idle: number;
  /** Spares that are ready: a tool's first call in a new run will not wait for a start-up. */
  readonly spares: number;
}

/**
 * Warm children. A child serves one run and one tool: it goes back to its run's pool after an
 * answered request and is replaced after recycleAfterCalls requests; a dead one (timeout, crash,
 * protocol error, memory) is dropped. After a tool's call, one spare is started for it (bundle
 * verified and imported, no request served) so that the tool's first call in the next run skips the
 * start-up; a spare becomes the run's own when leased. At most maxIdle children wait, spares
 * included, least recently used stopped first, each for at most idleTimeoutMs. At most maxChildren are
 * alive at once: at the cap a new child replaces the least recently used idle one, and with none idle
 * a call waits (at most maxQueued of them, each until its deadline) for a child to end or go idle.
 */
export class ChildPool {
  private readonly byKey = new Map<string, SandboxChild[]>();
  /** Insertion order is use order: the first entry is the least recently used. */
  private readonly idle = new Map<SandboxChild, IdleEntry>();
  private readonly all = new Set<SandboxChild>();
  /** Calls waiting for room under maxChildren, longest-waiting first. */
  private readonly waiters: Array<() => void> = [];
  private spawned = 0;
  private closed = false;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: ResolvedSandboxOptions,
    private readonly watchdog: RssWatchdog,
  ) {}

  /** A child of this run, or a spare, that is ready for a request now; none if a start-up would be needed. */
  warm(key: PoolKey): SandboxChild | undefined {
    return this.take(key.run, true) ?? this.take(spareKey(key), true);
  }

  /**
   * A warm child of this run, else the tool's spare (perhaps still starting), else a new child started
   * from `spec()` when there is room under maxChildren (an idle child of another run or tool is stopped
   * to make it); else, once there is room, or "busy" when maxQueued calls already wait, or "aborted"
   * when `signal` is (the call's deadline) first.
   */
  async lease(key: PoolKey, spec: () => ChildSpec, signal: AbortSignal): Promise<SandboxChild | "busy" | "aborted"> {
    for (;;) {
      const child = this.take(key.run) ?? this.take(spareKey(key)) ?? (this.makeRoom() ? this.start(spec) : undefined);
      if (child !== undefined) return child;
      if (this.waiters.length >= this.options.maxQueued) return "busy";
      const woken = await this.waitForRoom(signal);
      if (woken !== "room") return woken;
    }
  }

  /** Whether a child may start now: under the cap, or at it with an idle child to stop (least recently used first). */
  private makeRoom(): boolean {
    if (this.all.size < this.options.maxChildren) return true;
    const oldest = this.idle.keys().next().value as SandboxChild | undefined;
    if (oldest === undefined) return false;
    this.unidle(oldest);
    oldest.kill({ by: "retired" });
    return this.all.size < this.options.maxChildren;
  }

  private waitForRoom(signal: AbortSignal): Promise<"room" | "aborted"> {
    if (signal.aborted) return Promise.resolve("aborted");
    return new Promise((resolve) => {
      const waiter = () => {
        signal.removeEventListener("abort", onAbort);
        resolve("room");
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve("aborted");
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** A child died or went idle: the longest-waiting call may try again. */
  private wake(): void {
    this.waiters.shift()?.();
  }

  /** Gives a child back after its request; it waits warm unless it is dead, used up, or the pool is closed. */
  release(key: PoolKey, child: SandboxChild, spec: () => ChildSpec): void {
    if (!child.alive) return;
    if (child.starting) {
      // The call gave up while the child was still loading (its deadline came first). It has served
      // no run, so once ready it waits as a spare: a tool whose timeout is shorter than the start-up
      // times out once, not forever.
      void child.started.then((started) => {
        if (!started.ok || !child.alive) return;
        if (this.closed) child.kill({ by: "retired" });
        else this.park(spareKey(key), child);
      });
      return;
    }
    if (this.closed || !child.idle || child.requests >= this.options.recycleAfterCalls || this.options.maxIdle === 0) {
      child.kill({ by: "retired" });
    } else {
      this.park(key.run, child);
    }
    // A spare only in spare room: never at the cap, never ahead of a waiting call.
    if (
      this.options.spare &&
      !this.closed &&
      !this.byKey.has(spareKey(key)) &&
      this.waiters.length === 0 &&
      this.all.size < this.options.maxChildren
    )
      this.park(spareKey(key), this.start(spec));
  }

  stats(): PoolStats {
    let spares = 0;
    for (const [child, entry] of this.idle) if (entry.key.startsWith(SPARE) && child.idle) spares += 1;
    return { spawned: this.spawned, live: this.all.size, idle: this.idle.size, spares };
  }

  /** The pids of live children, for operators and tests. */
  pids(): number[] {
    return [...this.all].flatMap((child) => {
      const pid = child.realPid() ?? child.pid;
      return pid === undefined ? [] : [pid];
    });
  }

  /** Stops every child now; later leases still work (a closed pool keeps no child warm). */
  close(): void {
    this.closed = true;
    for (const child of [...this.all]) child.kill({ by: "retired" });
  }

  /** The most recently parked live child under `key` (only a ready one when `ready`), taken out of the idle set. */
  private take(key: string, ready = false): SandboxChild | undefined {
    const waiting = this.byKey.get(key);
    if (waiting === undefined) return undefined;
    for (let i = waiting.length - 1; i >= 0; i--) {
      const child = waiting[i]!;
      if (child.alive && ready && !child.idle) continue;
      this.unidle(child);
      if (child.alive) return child;
    }
    return undefined;
  }

  private start(spec: () => ChildSpec): SandboxChild {
    const child = new SandboxChild(spec());
    this.spawned += 1;
    this.all.add(child);
    child.onDeath(() => {
      this.all.delete(child);
      this.unidle(child);
      this.wake();
    });
    this.watchdog.watch(child);
    return child;
  }

  private park(key: string, child: SandboxChild): void {
    this.idle.set(child, { key, since: monotonicMs() });
    this.sweepSoon();
    const list = this.byKey.get(key);
    if (list === undefined) this.byKey.set(key, [child]);
    else list.push(child);
    while (this.idle.size > this.options.maxIdle) {
      const oldest = this.idle.keys().next().value as SandboxChild;
      this.unidle(oldest);
      oldest.kill({ by: "retired" });
    }
    // An idle child is room for a waiting call (its lease stops the least recently used idle child).
    if (this.waiters.length > 0 && this.idle.has(child)) this.wake();
  }

  /**
   * Idle children past idleTimeoutMs are stopped by one sweep timer rather than a timer per child:
   * parking and taking a child happen on every call, and must cost next to nothing.
   */
  private sweepSoon(): void {
    if (this.sweeper !== undefined) return;
    const every = Math.max(10, Math.min(1_000, Math.floor(this.options.idleTimeoutMs / 4)));
    this.sweeper = setInterval(() => {
      const now = monotonicMs();
      // Insertion order is use order, so expired entries come first.
      for (const [child, entry] of this.idle) {
        if (now - entry.since < this.options.idleTimeoutMs) break;
        this.unidle(child);
        child.kill({ by: "retired" });
      }
      if (this.idle.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, every);
    this.sweeper.unref();
  }

  private unidle(child: SandboxChild): void {
    const entry = this.idle.get(child);
    if (entry === undefined) return;
    this.idle.delete(child);
    const list = this.byKey.get(entry.key);
    if (list === undefined) return;
    const at = list.indexOf(child);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byKey.delete(entry.key);
  }
}

const SPARE = "spare\u0000";

function spareKey(key: PoolKey): string {
  return `${SPARE}${key.tool}`;
}
