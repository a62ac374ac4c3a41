import { schema, tool } from "cave";
import * as dgram from "node:dgram";
import * as dns from "node:dns";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as net from "node:net";
import * as os from "node:os";

/** A native handle's class, found the way tool code can: through the live handles and objects Node hands out. */
type Handle = Record<string, (...args: unknown[]) => unknown> & { constructor: new (type: number) => Handle; oncomplete?: (status: number) => void };

/** The Pipe class (a libuv pipe: Unix-domain sockets), from the child's own channel to the host. */
function pipeClass(): new (type: number) => Handle {
  const active = (process as unknown as { _getActiveHandles(): Array<{ _handle?: Handle }> })._getActiveHandles();
  const socket = active.find((h) => h?._handle?.constructor?.name === "Pipe");
  if (socket === undefined) throw new Error("no Pipe handle found");
  return socket._handle!.constructor;
}

/** The TCP class, from a server handle net makes (not listening). */
function tcpClass(): new (type: number) => Handle {
  const handle = (net as unknown as { _createServerHandle(address: string, port: number, type: number): Handle | number })._createServerHandle("127.0.0.1", 0, 4);
  if (typeof handle === "number") throw new Error(`no TCP handle (${handle})`);
  handle.close!();
  return handle.constructor;
}

/** Waits for a native request's completion status (0: it worked). */
function complete(req: Handle, start: () => unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ reached: "no answer within 3 s" }), 3000);
    req.oncomplete = (status: number) => {
      clearTimeout(timer);
      if (status === 0) resolve({ reached: true });
      else reject(Object.assign(new Error(`native request failed with status ${status}`), { code: "NATIVE_FAILED" }));
    };
    const error = start();
    if (typeof error === "number" && error !== 0) {
      clearTimeout(timer);
      reject(Object.assign(new Error(`native call returned ${error}`), { code: "NATIVE_FAILED" }));
    }
  });
}

/**
 * The sandbox-boundary issue's weaknesses 1, 2 and 5, tried the way an attacker would: native handle classes reached
 * through Node's own objects, which the JavaScript routes (net.connect, http...) never see. It does not catch errors,
 * so the call's outcome says how (or whether) it was stopped.
 */
export const boundary = tool({
  name: "boundary",
  description: "Try to cross the sandbox's boundary one way.",
  input: schema.object({ how: schema.string(), path: schema.optional(schema.string()), port: schema.optional(schema.integer()) }),
  effect: "read",
  allowRepeat: true,
  timeout: 10_000,
  async execute({ how, path, port }) {
    switch (how) {
      // Weakness 1: a host Unix-domain socket (docker, databases, ssh-agent) by path.
      case "unix-connect": {
        const Pipe = pipeClass();
        const pipe = new Pipe(0);
        const req = new Pipe(0); // any wrap object with internal fields serves as the request
        return complete(req, () => pipe.connect!(req, path));
      }
      // Weakness 2: raw TCP connect, TCP listen, UDP send through native handles.
      case "tcp-connect": {
        const TCP = tcpClass();
        const socket = new TCP(0);
        const req = new TCP(0);
        return complete(req, () => socket.connect!(req, "127.0.0.1", port));
      }
      case "tcp-listen": {
        const server = new net.Server();
        (server as unknown as { _listen2(address: string, port: number, type: number, backlog: number): void })._listen2("127.0.0.1", 0, 4, 511);
        return { reached: server.address() };
      }
      case "udp-send": {
        const socket = new (dgram.Socket as unknown as new (type: string) => dgram.Socket)("udp4");
        const state = Object.getOwnPropertySymbols(socket)
          .map((key) => (socket as unknown as Record<symbol, { handle?: Handle }>)[key])
          .find((value) => value?.handle !== undefined);
        const handle = state!.handle!;
        const bound = handle.bind!("127.0.0.1", 0, 0);
        const sent = handle.send!({}, [Buffer.from("canary")], 1, port, "127.0.0.1", false);
        return { reached: { bound, sent } };
      }
      case "dns-native": {
        const resolver = new dns.Resolver() as unknown as { _handle: Handle };
        const req = new (pipeClass())(0);
        return complete(req, () => resolver._handle.queryA!(req, "example.com", false));
      }
      // Weakness 5: a socket inode created in a folder of the host (the build folder), whatever the tool declared.
      case "unix-listen": {
        const server = new net.Server();
        (server as unknown as { _listen2(address: string, port: number, type: number, backlog: number): void })._listen2(path!, -1, -1, 511);
        return { reached: fs.existsSync(path!) || "listening" };
      }
      // Weakness 5: the host's scheduling priority (set to what it is, so the test changes nothing).
      case "set-priority": {
        const current = os.getPriority(process.ppid);
        os.setPriority(process.ppid, current);
        return { reached: current };
      }
      // Weakness 5: whether a path exists anywhere on the machine.
      case "realpath":
        return { reached: fs.realpathSync(path!) };
      case "realpath-callback":
        return new Promise((resolve, reject) => fs.realpath(path!, (error, resolved) => (error ? reject(error) : resolve({ reached: resolved }))));
      // Weakness 5, the part JavaScript does not stop on Node 20: module resolution stats files unchecked.
      case "resolve":
        return { reached: createRequire("file:///sandbox-probe.js").resolve(path!) };
      // The tool's own view of the machine: what a root listing shows.
      case "list-root":
        return { reached: fs.readdirSync("/") };
      default:
        throw new Error(`unknown attempt ${how}`);
    }
  },
});
