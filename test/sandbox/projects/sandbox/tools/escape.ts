import { schema, tool } from "cave";

/** Tries one escape hatch (row 17); the error is not caught. */
export const escapeHatch = tool({
  name: "escape_hatch",
  description: "Try to leave the sandbox one way.",
  input: schema.object({ hatch: schema.string() }),
  effect: "read",
  allowRepeat: true,
  async execute({ hatch }) {
    switch (hatch) {
      case "child_process.spawn": {
        const cp = await import("node:child_process");
        return { pid: cp.spawn("/bin/sh", ["-c", "echo hi"]).pid ?? null };
      }
      case "child_process.execSync": {
        const cp = await import("node:child_process");
        return { out: cp.execSync("echo hi").toString() };
      }
      case "Worker": {
        const { Worker } = await import("node:worker_threads");
        return { worker: typeof new Worker("process.exit(0)", { eval: true }) };
      }
      case "inspector.open": {
        const inspector = await import("node:inspector");
        inspector.open(0);
        return { url: inspector.url() ?? null };
      }
      case "inspector.Session": {
        const inspector = await import("node:inspector");
        return { session: typeof new inspector.Session() };
      }
      case "dlopen":
        process.dlopen({ exports: {} } as NodeJS.Module, "/nonexistent/addon.node");
        return { loaded: true };
      case "wasi": {
        const { WASI } = await import("node:wasi");
        return { wasi: typeof new WASI({ version: "preview1" }) };
      }
      case "v8.setFlagsFromString": {
        const v8 = await import("node:v8");
        v8.setFlagsFromString("--allow-natives-syntax");
        return { set: true };
      }
      case "process.binding":
        return { binding: typeof (process as unknown as { binding(name: string): unknown }).binding("fs") };
      case "writeReport":
        return { report: process.report.writeReport("report.json") };
      default:
        throw new Error(`unknown hatch ${hatch}`);
    }
  },
});

/**
 * Writes into every file descriptor it may have inherited and wraps them as sockets (row 18): a child
 * process has its own descriptor table, so none of them is the host's connection to the canary.
 */
export const hostFds = tool({
  name: "host_fds",
  description: "Write to inherited file descriptors.",
  effect: "read",
  async execute() {
    const fs = await import("node:fs");
    const net = await import("node:net");
    const written: number[] = [];
    for (let fd = 3; fd < 1024; fd++) {
      try {
        fs.writeSync(fd, "CANARY-FD-WRITE\n");
        written.push(fd);
      } catch {
        // not open, or not writable
      }
      try {
        new net.Socket({ fd }).write("CANARY-FD-SOCKET\n");
      } catch {
        // denied
      }
    }
    return { written };
  },
});
