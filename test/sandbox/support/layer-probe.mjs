// @ts-check
// One child of the layer matrix (layer-matrix.ts): tries every attack once, in order, under whatever
// layers its parent started it with, and prints { attack: verdict } as one JSON line. Argument: a JSON
// object { deny: string | null (deny.mjs's file URL, to install the deny layer first), port (the
// canary's TCP and UDP port on 127.0.0.1), dir (a folder it may try to write in) }.
//
// Verdicts: "through" when the attempt did what it tried (read the file, connected, started the
// process); "stopped: CODE" when a layer refused it, with the error's code; "failed: CODE" for any
// other error (a probe that fails for another reason proves nothing, and the test says so).

import { writeSync } from "node:fs";

const { deny, port, dir } = JSON.parse(process.argv[2] ?? "{}");
if (deny) {
  const { installDenyLayer } = await import(deny);
  // The layer finds the native Pipe class through a pipe the process already has: stderr, a pipe to the test.
  installDenyLayer({ selfPid: process.pid, pipe: /** @type {any} */ (process.stderr)._handle });
}

/** Codes that mean a layer refused: the permission model, the deny layer, or an empty network namespace. */
const STOPPED = new Set([
  "ERR_ACCESS_DENIED",
  "ERR_DLOPEN_DISABLED",
  "ERR_SANDBOX_DENIED",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
]);
const HOST = "127.0.0.1";
const URL_ = `http://${HOST}:${port}/`;

/** @param {(done: (error?: unknown) => void) => void} start */
function settle(start) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error("no answer in 3 s"), { code: "TIMEOUT" })), 3000);
    start((error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(undefined);
    });
  });
}

/** @param {any} socket @param {(error?: unknown) => void} done */
const onConnect = (socket, done) => socket.on("connect", () => (socket.destroy(), done())).on("error", done);
// A socket the canary resets after the attempt settled must not end the probe.
process.on("uncaughtException", (error) => {
  if (/** @type {any} */ (error).code !== "ECONNRESET") throw error;
});

/** @type {Array<[string, () => unknown]>} */
const ATTACKS = [
  ["read /proc/self/environ", async () => (await import("node:fs")).readFileSync("/proc/self/environ")],
  ["read /etc/passwd", async () => (await import("node:fs")).readFileSync("/etc/passwd")],
  ["write a file", async () => (await import("node:fs")).writeFileSync(`${dir}/written`, "x")],
  [
    "child_process.execFileSync",
    async () => (await import("node:child_process")).execFileSync(process.execPath, ["-e", "0"]),
  ],
  [
    "new Worker",
    async () => {
      const { Worker } = await import("node:worker_threads");
      const worker = new Worker("0", { eval: true });
      await settle((done) => worker.on("online", () => done()).on("error", done));
      await worker.terminate();
    },
  ],
  ["process.dlopen (native addon)", () => process.dlopen({ exports: {} }, `${dir}/none.node`)],
  ["new WASI", async () => new (await import("node:wasi")).WASI({ version: "preview1" })],
  [
    "inspector.open",
    async () => {
      const inspector = await import("node:inspector");
      inspector.open(0, HOST);
      inspector.close();
    },
  ],
  ["process.binding('tcp_wrap')", () => /** @type {any} */ (process).binding("tcp_wrap")],
  ["signal the parent (process.kill)", () => process.kill(process.ppid, 0)],
  ["fetch", async () => void (await fetch(URL_, { signal: AbortSignal.timeout(3000) })).arrayBuffer()],
  [
    "net.connect",
    async () => {
      const net = await import("node:net");
      await settle((done) => onConnect(net.connect(port, HOST), done));
    },
  ],
  [
    "http.get",
    async () => {
      const http = await import("node:http");
      await settle((done) => http.get(URL_, (response) => (response.resume(), done())).on("error", done));
    },
  ],
  [
    "process.getBuiltinModule('net')",
    async () => {
      const net = /** @type {any} */ (process).getBuiltinModule("node:net");
      await settle((done) => onConnect(net.connect(port, HOST), done));
    },
  ],
  [
    "dgram send",
    async () => {
      const dgram = await import("node:dgram");
      const socket = dgram.createSocket("udp4");
      try {
        await settle((done) => socket.send("canary", port, HOST, (error) => done(error ?? undefined)));
      } finally {
        try {
          socket.close();
        } catch {
          // Never bound (the send was refused).
        }
      }
    },
  ],
  [
    "dns.lookup('localhost')",
    async () => {
      const dns = await import("node:dns");
      await settle((done) => dns.lookup("localhost", (error) => done(error ?? undefined)));
    },
  ],
  // Last: it changes this process's V8 flags.
  ["v8.setFlagsFromString", async () => (await import("node:v8")).setFlagsFromString("--no-opt")],
];

/** @type {Record<string, string>} */
const result = {};
for (const [name, attack] of ATTACKS) {
  try {
    await attack();
    result[name] = "through";
  } catch (thrown) {
    let error = /** @type {any} */ (thrown);
    // fetch wraps the socket's error in `cause`.
    while (error?.code === undefined && error?.cause !== undefined) error = error.cause;
    const code = String(error?.code ?? error?.name ?? "unknown");
    // A dlopen that reached the loader (the file does not exist) was not stopped.
    result[name] =
      code === "ERR_DLOPEN_FAILED" ? "through" : STOPPED.has(code) ? `stopped: ${code}` : `failed: ${code}`;
  }
}
// Straight to fd 1: process.stdout on a pipe is a net.Socket({ fd }), which the deny layer refuses.
writeSync(1, `${JSON.stringify(result)}\n`);
