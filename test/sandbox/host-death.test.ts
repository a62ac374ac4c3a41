// A host that dies without running its exit handlers (SIGKILL, or a signal it does not handle: SIGTERM, SIGINT) must
// not leave its sandbox children behind. Children run in a session of their own, so neither the host's death nor a
// terminal's Ctrl-C reaches them; an idle child exits when its channel closes, but a busy one never reads that. Under
// the OS layer bwrap's --die-with-parent ends them (os-layer.test.ts); this is the same attack under the Node layer.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SENTINEL } from "../../runtime/sandbox/reaper.js";
import { removeCopies } from "../support/projects.js";
import { startHost } from "./support/host-process.js";
import { builtProject } from "./support/project.js";
import { gone } from "./support/runtime.js";
import { waitFor } from "./support/wait-for.js";

let root: string;
beforeAll(async () => {
  root = await builtProject("sandbox");
});
afterAll(() => removeCopies());

/** The command line of `pid`, or "" once it is gone. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1");
  } catch {
    return "";
  }
}

/** The processes on this machine whose parent is `host` and whose command line holds `marker`. */
function childrenOf(host: number, marker = "bootstrap.mjs"): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === host && commandLine(Number(entry)).includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** CPU time `pid` has used, in clock ticks (utime + stime from /proc), or -1 once it is gone. */
function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return -1;
  }
}

describe.each(["SIGKILL", "SIGTERM", "SIGINT"] as const)("a host ended by %s under the Node layer", (signal) => {
  it("leaves no busy sandbox child behind, nor the sentinel that ended it", async () => {
    const { child, exited } = await startHost(
      { root, calls: [{ name: "fault", args: { kind: "spin" } }] },
      { CAVE_ISOLATION: "node" },
    );
    // Busy, not only started: a child still waiting for its call would end by itself when its channel closes.
    await waitFor(() => childrenOf(child.pid!).some((pid) => cpuTicks(pid) >= 30), 20_000);
    const children = childrenOf(child.pid!);
    const sentinels = childrenOf(child.pid!, "kill -KILL");
    expect(sentinels).toHaveLength(1);
    child.kill(signal);
    expect(await exited).toEqual({ code: null, signal });
    for (const pid of children) expect(await gone(pid), `sandbox child ${pid} outlived its host`).toBe(true);
    expect(await gone(sentinels[0]!), "the sentinel outlived its host").toBe(true);
  }, 40_000);
});

describe("the sentinel", () => {
  it("kills the process group of each child it was told of and not told had ended, once its input ends", async () => {
    const sleeper = () => spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
    const [ended, live] = [sleeper(), sleeper()];
    const exitOf = (process: ChildProcess) =>
      new Promise<string | null>((resolve) => process.on("exit", (_code, signal) => resolve(signal)));
    const liveExit = exitOf(live);
    const sentinel = spawn("/bin/sh", ["-c", SENTINEL], { stdio: ["pipe", "ignore", "ignore"] });
    sentinel.stdin!.end(`+${ended.pid}\n+${live.pid}\n-${ended.pid}\n`);
    await new Promise((resolve) => sentinel.on("exit", resolve));
    expect(await liveExit).toBe("SIGKILL");
    expect(ended.exitCode === null && ended.signalCode === null, "a child told ended was killed").toBe(true);
    ended.kill("SIGKILL");
  });
});
