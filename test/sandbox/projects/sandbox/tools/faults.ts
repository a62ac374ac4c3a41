import { schema, tool } from "cave";
import { randomUUID } from "node:crypto";

/**
 * Which process this is: under the OS layer every child is pid 2 of its own pid namespace, so tests tell
 * children apart by this, and find their host pids with the dispatcher's pids().
 */
const instance = randomUUID();

const hold: unknown[] = [];

/**
 * Misbehaves in the way it is asked to (rows 7-12 of the adversarial table). "pid" answers with its
 * process id, so a test can find the child before asking it to hang.
 */
export const fault = tool({
  name: "fault",
  description: "Fail in a chosen way.",
  input: schema.object({ kind: schema.string() }),
  effect: "read",
  allowRepeat: true,
  timeout: 1500,
  async execute({ kind }) {
    switch (kind) {
      case "pid":
        return { pid: process.pid, instance };
      case "throw":
        throw new Error("thrown on purpose");
      case "reject":
        return Promise.reject(new Error("rejected on purpose"));
      case "unhandled":
        void Promise.reject(new Error("nobody handles this"));
        return new Promise(() => {});
      case "uncaught":
        setTimeout(() => {
          throw new Error("thrown from a timer");
        }, 0);
        return new Promise(() => {});
      case "spin":
        for (;;) {
          // a synchronous endless loop: only killing the process stops it
        }
      case "pending":
        return new Promise(() => {});
      case "interval":
        setInterval(() => hold.push(1), 10);
        return new Promise(() => {});
      case "atomics":
        // A blocking native call that never returns.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        return { woke: true };
      case "json-parse": {
        const text = JSON.stringify({ list: Array.from({ length: 600_000 }, (_, i) => ({ i, s: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" })) });
        for (;;) JSON.parse(text);
      }
      case "fifo": {
        const { readFileSync } = await import("node:fs");
        return { text: readFileSync("/tmp/cave-sandbox-test-fifo", "utf8") };
      }
      case "exit":
        process.exit(0);
      case "sigkill":
        process.kill(process.pid, "SIGKILL");
        return new Promise(() => {});
      case "stdout-flood":
        for (let i = 0; i < 2000; i++) process.stdout.write("x".repeat(64 * 1024));
        return { flooded: "stdout" };
      case "stderr-flood":
        for (let i = 0; i < 2000; i++) process.stderr.write("y".repeat(64 * 1024));
        return { flooded: "stderr" };
      case "fine":
        return { fine: true, pid: process.pid };
      default:
        throw new Error(`unknown kind ${kind}`);
    }
  },
});

/** Tries to signal the host (row 13). */
export const signalHost = tool({
  name: "signal_host",
  description: "Signal the parent process.",
  input: schema.object({ how: schema.string() }),
  effect: "read",
  allowRepeat: true,
  execute({ how }) {
    const proc = process as unknown as { _kill(pid: number, signal: number): void };
    if (how === "kill-ppid") process.kill(process.ppid, "SIGTERM");
    else if (how === "_kill-ppid") proc._kill(process.ppid, 15);
    else if (how === "kill-group") process.kill(0, "SIGTERM");
    else if (how === "kill-negative-ppid") process.kill(-process.ppid, "SIGTERM");
    return { sent: how };
  },
});

/**
 * Row 11's memory bombs, with a timeout far past what filling the limits takes, so only the heap limit or the RSS
 * watchdog can end them (on a loaded machine filling 256 MB can outlast fault's 1.5 s and end as TIMEOUT instead).
 */
export const bomb = tool({
  name: "bomb",
  description: "Fill the heap or off-heap memory until stopped.",
  input: schema.object({ kind: schema.string() }),
  effect: "read",
  allowRepeat: true,
  timeout: 30_000,
  execute({ kind }) {
    if (kind === "pid") return { pid: process.pid, instance };
    if (kind === "heap") for (;;) hold.push(new Array(100_000).fill({ x: 1 }));
    if (kind === "buffer") for (;;) hold.push(Buffer.alloc(64 * 1024 * 1024, 1));
    throw new Error(`unknown kind ${kind}`);
  },
});

/**
 * The output floods, with a timeout far past what writing them takes: the child caps what leaves it, but on a loaded
 * machine writing 128 MB into the cap's observer can outlast fault's 1.5 s and end as TIMEOUT, which is not what the
 * flood tests are about (the host draining and discarding, and the next call working).
 */
export const flood = tool({
  name: "flood",
  description: "Write 128 MB to stdout or stderr.",
  input: schema.object({ kind: schema.string() }),
  effect: "read",
  allowRepeat: true,
  timeout: 30_000,
  execute({ kind }) {
    const stream = kind === "stdout-flood" ? process.stdout : process.stderr;
    for (let i = 0; i < 2000; i++) stream.write((kind === "stdout-flood" ? "x" : "y").repeat(64 * 1024));
    return { flooded: kind === "stdout-flood" ? "stdout" : "stderr" };
  },
});

/** Row 8's tool: a 200 ms timeout. */
export const spin = tool({
  name: "spin",
  description: "Spin forever, or say which process this is.",
  input: schema.object({ kind: schema.string() }),
  effect: "read",
  allowRepeat: true,
  timeout: 200,
  execute({ kind }) {
    if (kind === "pid") return { pid: process.pid, instance };
    for (;;) {
      // only a kill stops this
    }
  },
});
