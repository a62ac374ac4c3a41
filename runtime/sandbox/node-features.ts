/**
 * Every fact about the running Node.js version that cave's code depends on, in one place.
 *
 * Why one module: the sandbox is the part of cave that changes between Node versions (the permission
 * flag was renamed, grants such as `--allow-wasi` appeared, Node 25 brought network permission), and a
 * check scattered through the code is a check nobody re-measures. Every version-dependent choice in
 * runtime/ and compiler/ reads this module instead of `process.version` or
 * `process.allowedNodeEnvironmentFlags`.
 *
 * How facts are found: by feature detection wherever Node exposes the feature (the flags it accepts,
 * the functions it has), and by version only where nothing can be probed without running code
 * (`wasmModuleImports`). Each fact's comment says which, and test/runtime/node-features.test.ts checks
 * every fact against the Node that runs the suite (CI runs it on 20, 22 and 24, see .ci/run).
 *
 * API: `nodeFeatures()` for the running process (computed once), `describeNode(probe)` for the same
 * facts from a given probe (tests, and tools that reason about another Node binary).
 */
import { thrownText } from "../../src/contract/thrown-message.mjs";

/** The permission model's flag: `--experimental-permission` on Node 20, `--permission` from 22.13 (24+ reject the old name). */
export type PermissionFlag = "--permission" | "--experimental-permission";

/**
 * What the permission model refuses unless it is granted: `fs.read` and `fs.write` (`--allow-fs-*`,
 * including `/proc/self/environ`), `child` (`--allow-child-process`), `worker` (`--allow-worker`),
 * `addons` (`--allow-addons`), `wasi` (`--allow-wasi`), `inspector` (`inspector.open`, granted by
 * `--allow-inspector` where that exists), `bindings` (`process.binding`), `net` (`--allow-net`).
 */
export type PermissionScope =
  | "fs.read"
  | "fs.write"
  | "child"
  | "worker"
  | "addons"
  | "wasi"
  | "inspector"
  | "bindings"
  | "net";

export interface NodeFeatures {
  /** `process.version`, e.g. "v22.23.5". */
  readonly version: string;
  readonly major: number;
  readonly minor: number;
  /** The native-addon ABI (`process.versions.modules`): an addon built for one ABI never loads on another. */
  readonly abi: string;
  /** The permission model's flag on this Node (detected from the flags it accepts), or null when it has none. */
  readonly permissionFlag: PermissionFlag | null;
  /** What the permission model refuses when nothing is granted; empty without a permission model. */
  readonly permissionCovers: readonly PermissionScope[];
  /**
   * The permission model refuses the network unless `--allow-net` is passed (Node 25+; detected by
   * Node accepting `--allow-net`). Cave never passes it, so there it is one more network layer.
   */
  readonly permissionDeniesNetwork: boolean;
  /**
   * `process.getBuiltinModule` exists (20.16+, 22.3+): a route to builtin modules that bypasses
   * `import` and `require`, so the sandbox's deny layer patches the module objects themselves.
   */
  readonly getBuiltinModule: boolean;
  /** `WebSocket` is a global without a flag (22+); the deny layer defines a refusing one everywhere. */
  readonly webSocketGlobal: boolean;
  /**
   * `import "../x.wasm"` works without `--experimental-wasm-modules` (unflagged in 22.19 and 24.5, by
   * version: nothing short of importing one tells). `WebAssembly.compile`/`instantiate` work on every
   * version, inside the sandbox too (the permission model does not cover WebAssembly).
   */
  readonly wasmModuleImports: boolean;
}

/** What `describeNode` needs to know about a Node: read off the running process by `nodeFeatures()`. */
export interface NodeProbe {
  /** `process.version` or `process.versions.node`, with or without the leading "v". */
  readonly version: string;
  /** `process.versions.modules`. */
  readonly abi: string;
  /** `process.allowedNodeEnvironmentFlags`: the flags this Node accepts. */
  readonly flags: ReadonlySet<string>;
  /** `typeof process.getBuiltinModule === "function"`. */
  readonly getBuiltinModule: boolean;
  /** `typeof globalThis.WebSocket === "function"` (without `--experimental-websocket`). */
  readonly webSocketGlobal: boolean;
}

/** The facts for one probe. Pure: the same probe gives the same facts. */
export function describeNode(probe: NodeProbe): NodeFeatures {
  const [major = 0, minor = 0] = probe.version.replace(/^v/, "").split(".").map(Number);
  const { flags } = probe;
  const permissionFlag: PermissionFlag | null = flags.has("--permission")
    ? "--permission"
    : flags.has("--experimental-permission")
      ? "--experimental-permission"
      : null;
  const permissionDeniesNetwork = permissionFlag !== null && flags.has("--allow-net");
  const permissionCovers: PermissionScope[] = [];
  if (permissionFlag !== null) {
    // Files, processes, workers, the inspector and raw bindings are refused under every permission
    // model cave runs on (measured on 20.20, 22.23 and 24.22; the test re-measures the running Node).
    // Addons, WASI and the network arrived with their grant flags, so a grant flag this Node accepts
    // is how to tell that it covers the scope.
    permissionCovers.push("fs.read", "fs.write", "child", "worker");
    if (flags.has("--allow-addons")) permissionCovers.push("addons");
    if (flags.has("--allow-wasi")) permissionCovers.push("wasi");
    permissionCovers.push("inspector", "bindings");
    if (permissionDeniesNetwork) permissionCovers.push("net");
  }
  return {
    version: probe.version.startsWith("v") ? probe.version : `v${probe.version}`,
    major,
    minor,
    abi: probe.abi,
    permissionFlag,
    permissionCovers,
    permissionDeniesNetwork,
    getBuiltinModule: probe.getBuiltinModule,
    webSocketGlobal: probe.webSocketGlobal,
    wasmModuleImports: major >= 25 || (major === 24 && minor >= 5) || (major === 22 && minor >= 19),
  };
}

let current: NodeFeatures | undefined;

/** The facts for the Node running this process, computed once. */
export function nodeFeatures(): NodeFeatures {
  current ??= describeNode({
    version: process.version,
    abi: process.versions.modules ?? "",
    flags: process.allowedNodeEnvironmentFlags,
    getBuiltinModule: typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule === "function",
    // `in`, never a read: on 22 and later the global is lazy, and reading it loads undici (0.1-0.4 s of start-up).
    webSocketGlobal: "WebSocket" in globalThis && !process.execArgv.includes("--experimental-websocket"),
  });
  return current;
}

/**
 * The message of an error `JSON.parse` threw, the same on every Node version: V8 in Node 22+ appends
 * " (line L column C)" to "... at position N", which Node 20 does not, and a diagnostic or a golden file
 * that quoted it would differ by version. The position stays; the suffix goes.
 */
export function jsonParseMessage(thrown: unknown): string {
  const message = thrownText(thrown);
  return message.replace(/ \(line \d+ column \d+\)$/, "");
}
