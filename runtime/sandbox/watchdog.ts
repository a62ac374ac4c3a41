import { readFileSync } from "node:fs";
import type { SandboxChild } from "./sandbox-child.js";

/** How often resident memory is read. A bomb filling memory at ~2 GB/s overshoots the limit by at most this much time's worth. */
const INTERVAL_MS = 25;

/**
 * The RSS watchdog: the heap limit (--max-old-space-size) does not bound Buffers and other off-heap
 * memory, so the host reads each live child's resident set size from /proc and kills a child past
 * the limit. Linux only (elsewhere it reports itself inactive); a cgroup is the real bound.
 */
export class RssWatchdog {
  private readonly children = new Set<SandboxChild>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly limitBytes: number) {}

  static get supported(): boolean {
    return process.platform === "linux";
  }

  watch(child: SandboxChild): void {
    if (!RssWatchdog.supported || child.pid === undefined) return;
    this.children.add(child);
    child.onDeath(() => this.unwatch(child));
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.check(), INTERVAL_MS);
      this.timer.unref();
    }
  }

  private unwatch(child: SandboxChild): void {
    this.children.delete(child);
    if (this.children.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private check(): void {
    for (const child of this.children) {
      // The node process itself, not bwrap around it (its resident memory is what a bomb fills).
      const pid = child.realPid();
      if (pid === undefined) continue;
      const rss = residentBytes(pid);
      if (rss !== undefined && rss > this.limitBytes) child.kill({ by: "rss", rssBytes: rss });
    }
  }
}

/** VmRSS of a process in bytes, or undefined once it is gone. */
export function residentBytes(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {
    return undefined;
  }
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}
