import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeNode,
  jsonParseMessage,
  nodeFeatures,
  type NodeProbe,
  type PermissionScope,
} from "../../runtime/sandbox/node-features.js";

const run = promisify(execFile);

/** The flags each tested line accepts that the facts depend on (read off 20.20.2, 22.23.5, 24.22.3; 25 adds --allow-net). */
const BASE = ["--allow-fs-read", "--allow-fs-write", "--allow-child-process", "--allow-worker", "--no-addons"];
const probe = (version: string, abi: string, flags: readonly string[], extra: Partial<NodeProbe> = {}): NodeProbe => ({
  version,
  abi,
  flags: new Set([...BASE, ...flags]),
  getBuiltinModule: true,
  webSocketGlobal: true,
  ...extra,
});

describe("describeNode (facts from a probe)", () => {
  it("Node 20: the experimental flag, no network permission, WebSocket behind a flag, .wasm imports behind a flag", () => {
    const facts = describeNode(
      probe("v20.20.2", "115", ["--experimental-permission", "--allow-addons", "--allow-wasi"], {
        webSocketGlobal: false,
      }),
    );
    expect(facts).toEqual({
      version: "v20.20.2",
      major: 20,
      minor: 20,
      abi: "115",
      permissionFlag: "--experimental-permission",
      permissionCovers: ["fs.read", "fs.write", "child", "worker", "addons", "wasi", "inspector", "bindings"],
      permissionDeniesNetwork: false,
      getBuiltinModule: true,
      webSocketGlobal: false,
      wasmModuleImports: false,
    });
  });

  it("Node 22.13+ accepts both names and takes --permission", () => {
    const facts = describeNode(
      probe("22.23.5", "127", ["--permission", "--experimental-permission", "--allow-addons", "--allow-wasi"]),
    );
    expect(facts.version).toBe("v22.23.5");
    expect(facts.permissionFlag).toBe("--permission");
    expect(facts.permissionDeniesNetwork).toBe(false);
    expect(facts.wasmModuleImports).toBe(true);
    expect(describeNode(probe("22.12.0", "127", ["--experimental-permission"])).wasmModuleImports).toBe(false);
  });

  it("Node 24 rejects the old name; only --permission is taken", () => {
    const facts = describeNode(
      probe("v24.22.3", "137", ["--permission", "--allow-addons", "--allow-wasi", "--allow-inspector"]),
    );
    expect(facts.permissionFlag).toBe("--permission");
    expect(facts.permissionCovers).not.toContain("net");
    expect(describeNode(probe("v24.4.1", "137", ["--permission"])).wasmModuleImports).toBe(false);
  });

  it("a Node that accepts --allow-net (25+) has the permission model refuse the network", () => {
    const facts = describeNode(
      probe("v25.9.0", "141", ["--permission", "--allow-addons", "--allow-wasi", "--allow-net"]),
    );
    expect(facts.permissionDeniesNetwork).toBe(true);
    expect(facts.permissionCovers).toContain("net");
  });

  it("a Node without a permission model: no flag, nothing covered, no network layer even if --allow-net were known", () => {
    const facts = describeNode(probe("v18.20.0", "108", ["--allow-net"], { getBuiltinModule: false }));
    expect(facts.permissionFlag).toBeNull();
    expect(facts.permissionCovers).toEqual([]);
    expect(facts.permissionDeniesNetwork).toBe(false);
    expect(facts.getBuiltinModule).toBe(false);
  });

  it("addons and WASI count as covered only where Node has their grant flags", () => {
    const facts = describeNode(probe("v20.10.0", "115", ["--experimental-permission"]));
    expect(facts.permissionCovers).toEqual(["fs.read", "fs.write", "child", "worker", "inspector", "bindings"]);
  });
});

/**
 * Each scope tried once in a child under the permission model with nothing granted but reading its own
 * folder; prints { scope: "denied" | "allowed" | <other error code> }.
 */
const PROBE_SCRIPT = `
import { readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { connect } from "node:net";
const [port, dir] = process.argv.slice(2);
const result = {};
// ERR_DLOPEN_DISABLED: the permission model turns addons off unless --allow-addons (no --no-addons is passed here).
const verdict = (error) => error?.code === "ERR_ACCESS_DENIED" || error?.code === "ERR_DLOPEN_DISABLED" ? "denied" : String(error?.code ?? error?.message ?? error);
async function attempt(scope, action) {
  try { await action(); result[scope] = "allowed"; } catch (error) { result[scope] = verdict(error); }
}
await attempt("fs.read", () => readFileSync("/etc/hostname"));
await attempt("fs.write", () => writeFileSync(dir + "/written", "x"));
await attempt("child", () => execFileSync(process.execPath, ["-e", "0"]));
await attempt("worker", async () => { const { Worker } = await import("node:worker_threads"); await new Worker("0", { eval: true }).terminate(); });
await attempt("addons", () => process.dlopen({ exports: {} }, dir + "/none.node"));
await attempt("wasi", async () => { const { WASI } = await import("node:wasi"); new WASI({ version: "preview1" }); });
await attempt("inspector", async () => { const inspector = await import("node:inspector"); inspector.open(0, "127.0.0.1"); inspector.close(); });
await attempt("bindings", () => process.binding("tcp_wrap"));
await attempt("net", () => new Promise((resolve, reject) => { const socket = connect(Number(port), "127.0.0.1"); socket.on("connect", () => { socket.destroy(); resolve(); }); socket.on("error", reject); }));
await attempt("webassembly", () => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])));
console.log(JSON.stringify(result));
`;

describe("nodeFeatures() against the Node running this suite", () => {
  const facts = nodeFeatures();
  let dir: string;
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "cave-node-features-"));
    writeFileSync(join(dir, "probe.mjs"), PROBE_SCRIPT);
    // An empty WebAssembly module (magic and version): enough for an import to succeed or fail.
    writeFileSync(join(dir, "empty.wasm"), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    writeFileSync(join(dir, "wasm.mjs"), 'import * as wasm from "./empty.wasm"; console.log(typeof wasm);');
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("version, ABI and the probed globals are this process's", () => {
    expect(facts.version).toBe(process.version);
    expect(facts.abi).toBe(process.versions.modules);
    expect(facts.major).toBe(Number(process.versions.node.split(".")[0]));
    expect(facts.getBuiltinModule).toBe(typeof process.getBuiltinModule === "function");
    expect(nodeFeatures()).toBe(facts);
  });

  it("WebSocket is a global exactly when it says so (a fresh process, no flags)", async () => {
    const { stdout } = await run(process.execPath, ["-p", "typeof WebSocket"], { env: {} });
    expect(stdout.trim() === "function").toBe(facts.webSocketGlobal);
  });

  it("Node starts with the permission flag it names (every supported Node has one)", async () => {
    expect(facts.permissionFlag).not.toBeNull();
    const { stdout } = await run(process.execPath, [facts.permissionFlag!, "-p", "typeof process.permission"], {
      env: {},
    });
    expect(stdout.trim()).toBe("object");
  });

  it("every scope it says the permission model covers is refused, and network is refused exactly when it says so", async () => {
    const { stdout } = await run(
      process.execPath,
      [facts.permissionFlag!, `--allow-fs-read=${dir}/`, "--no-warnings", join(dir, "probe.mjs"), String(port), dir],
      { env: {} },
    );
    const seen = JSON.parse(stdout) as Record<PermissionScope | "webassembly", string>;
    const covered = new Set<string>(facts.permissionCovers);
    const refused = Object.entries(seen)
      .filter(([, verdict]) => verdict === "denied")
      .map(([scope]) => scope);
    expect(refused.sort()).toEqual([...covered].sort());
    // What it does not cover really goes through: network reaches the canary here unless Node refuses it.
    expect(seen.net).toBe(facts.permissionDeniesNetwork ? "denied" : "allowed");
    expect(connections).toBe(facts.permissionDeniesNetwork ? 0 : 1);
    // WebAssembly is computation, not a permission scope: it runs inside the sandbox on every version.
    expect(seen.webassembly).toBe("allowed");
  });

  it("a .wasm module imports without a flag exactly when wasmModuleImports says so", async () => {
    const outcome = await run(process.execPath, ["--no-warnings", join(dir, "wasm.mjs")], { env: {} }).then(
      ({ stdout }) => stdout.trim(),
      (error: { stderr?: string }) =>
        /ERR_UNKNOWN_FILE_EXTENSION/.test(error.stderr ?? "") ? "unknown extension" : String(error.stderr),
    );
    expect(outcome).toBe(facts.wasmModuleImports ? "object" : "unknown extension");
  });
});

describe("jsonParseMessage", () => {
  it("drops the line and column suffix V8 in Node 22+ appends, keeping the position", () => {
    expect(
      jsonParseMessage(
        new SyntaxError("Expected double-quoted property name in JSON at position 23 (line 1 column 24)"),
      ),
    ).toBe("Expected double-quoted property name in JSON at position 23");
    expect(jsonParseMessage("Unexpected end of JSON input")).toBe("Unexpected end of JSON input");
  });

  it("gives the same text on this Node as Node 20 gives for the same input", () => {
    let thrown: unknown;
    try {
      JSON.parse('{"root": ".", oops}');
    } catch (error) {
      thrown = error;
    }
    expect(jsonParseMessage(thrown)).toBe("Expected double-quoted property name in JSON at position 14");
  });
});
