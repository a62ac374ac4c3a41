import type { CodeEntry } from "./types.js";

/**
 * Outcome codes of the child-process sandbox (docs/sandbox.md). Like the other runtime codes they are
 * keyed by name, travel in call outcomes and receipts, and are part of the runtime's closed set.
 */
export const SANDBOX_CODES = {
  TOOL_CRASHED: {
    title: "Tool process crashed",
    doc: "The sandboxed tool's process ended before it returned a result (it exited, or was killed by a signal). It is never reported as a success; a tool that is not read-only gets effectUnknown. The next call starts a fresh process.",
  },
  PROTOCOL_ERROR: {
    title: "Sandbox protocol error",
    doc: "The tool's process sent something other than exactly one well-formed result for the pending call (garbage, a second result, a result for another call, an oversized frame) on its channel to the host. The process was killed and nothing it sent was delivered; the next call starts a fresh one.",
  },
  RESOURCE_EXHAUSTED: {
    title: "Resource limit reached",
    doc: "The sandboxed tool ran out of JavaScript heap (the sandbox's heapMb) or its process used more memory than maxRssMb (off-heap Buffers included) and was killed. Use less memory, or raise the limit in createSandboxDispatcher() options.",
  },
  SANDBOX_DENIED: {
    title: "Denied by the sandbox",
    doc: "The tool failed because the sandbox refused an operation: a file read or write outside its bundle, a child process, a worker, an addon, the inspector, signalling another process (ERR_ACCESS_DENIED, ERR_SANDBOX_DENIED). The message names the operation. A sandboxed tool cannot do these things; pass what it needs as arguments.",
  },
  NETWORK_REFUSED: {
    title: "Network refused",
    doc: "The tool failed because it tried to reach the network where its sandbox does not let it. A host that is not in its sandboxProfile.egress (or a name that resolves to an internal address without being listed by its exact name) is named in the message: add it to sandboxProfile.egress and rebuild. A route the egress broker does not carry (raw TCP or UDP, DNS, HTTP/2, WebSocket, an undici pool or agent the tool makes itself, a local socket) is named too: use fetch, undici's global dispatcher or the http/https modules. sandboxProfile.network: true (unbounded egress) always fails closed.",
  },
  SECRET_MISSING: {
    title: "Secret missing",
    doc: "A tool declares a credential in sandboxProfile.secrets and the runtime has no usable value for it: the host's environment (or the createRuntime secrets provider) has none, the provider threw, or the value is not a visible-ASCII header value. The message names the secret, never a value; the tool did not start. Set it in the host's environment or in the secrets provider.",
  },
  SANDBOX_BUSY: {
    title: "Sandbox busy",
    doc: "The runtime already runs maxChildren sandbox processes (default 16) with none idle, and maxQueued calls (default 64) already wait for one, so this call was refused without running. A waiting call runs as soon as a process is free, or ends at its deadline. Retry later, or raise maxChildren / maxQueued in createSandboxDispatcher() options.",
  },
  EFFECT_UNKNOWN: {
    title: "Effect unknown after a crash",
    doc: "A durable journal shows that this call of a tool that is not read-only started but never recorded a result (the host stopped mid-call). It is not run again, because its effect may already have happened: check the system it acts on, then call it with a new run or different arguments.",
  },
  ENTRY_PATH_REQUIRED: {
    title: "run() needs entryPath",
    doc: 'Programmatic run() of a tool with sandbox: "required" must pass RunOptions.entryPath: the path of the module that exports the definition, so that exactly that module can be staged and imported in the sandbox. The CLI supplies it.',
  },
  RUN_NOT_STAGED: {
    title: "run() could not stage the entry",
    doc: "Programmatic run() staged the module at entryPath with the compiler and the compiler reported errors (listed in the message), or the module does not export the tool that was passed. Fix the module (cave build shows the same diagnostics), or pass the path of the module that exports the definition.",
  },
  OS_LAYER_REQUIRED: {
    title: "Tool needs the sandbox's OS layer",
    doc: 'The tool\'s locked sandboxProfile grants powers only the OS layer (bubblewrap) can enforce, such as filesystem scopes, and it is not in use here: isolation "node", or "auto" on a host where bubblewrap cannot start. createRuntime() throws it and cave verify reports it where that is known beforehand; otherwise the call is refused without running. Install bubblewrap and let it create namespaces (docs/sandbox.md), or remove the powers and rebuild.',
  },
  FS_SCOPE_UNAVAILABLE: {
    title: "Filesystem scope unavailable",
    doc: "A filesystem scope of the tool cannot be granted as locked on this machine: a named runtime setting is not set (or not an absolute directory), a read scope does not exist, a write scope is a file or cannot be created, a scope passes through a symbolic link, a glob matches one, or a path holds a character Node's permission flags interpret. createRuntime() throws it and cave verify reports it; a scope that changes later refuses the call. The message names the scope and what to fix.",
  },
} as const satisfies Record<string, CodeEntry>;

export type SandboxCode = keyof typeof SANDBOX_CODES;
