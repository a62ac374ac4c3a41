// bench/runtime/guarantee-floor.mjs is the yardstick issue 20's start-up ratios are read against (docs/decisions.md,
// "Issue 20's start-up ratios are measured against the floor of cave's guarantees"): a floor that skipped a check
// would claim a floor lower than the guarantees allow. So each of its checks is fed a lock or file changed after the
// build and must refuse it, and its call must give what the runtime's first call gives. Each call runs in a fresh
// Node, as the benchmark runs it.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const benchUrl = new URL("../../bench/runtime/", import.meta.url).href;
const runtimeUrl = new URL("../../dist/runtime/index.js", import.meta.url).href;

let scratch: string;
let built: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "cave-floor-test-"));
  built = join(scratch, "built");
  const { buildNineProject } = (await import(`${benchUrl}nine-project.mjs`)) as {
    buildNineProject: (root: string, repoRoot: string, count: number, perModule: number) => void;
  };
  mkdirSync(built);
  buildNineProject(built, repoRoot, 3, 3);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the built project with `change` applied, for one refused case. */
function changedCopy(name: string, change: (root: string) => void): string {
  const root = join(scratch, name);
  cpSync(built, root, { recursive: true, verbatimSymlinks: true });
  change(root);
  return root;
}

/** Runs `body` (an ES module body with `floor`, `nine` and `runtime` imported) in a fresh Node; its JSON line. */
function inFreshNode(body: string): { ok: boolean; value?: unknown; error?: string } {
  const script = `const floor = await import(${JSON.stringify(`${benchUrl}guarantee-floor.mjs`)});
const nine = await import(${JSON.stringify(`${benchUrl}nine-project.mjs`)});
try { const value = await (async () => { ${body} })(); process.stdout.write(JSON.stringify({ ok: true, value })); }
catch (error) { process.stdout.write(JSON.stringify({ ok: false, error: error.message })); }`;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", cwd: repoRoot }),
  );
}

const floorCall = (root: string, name = "t_0000") =>
  inFreshNode(`return floor.callWithGuaranteesOnly(${JSON.stringify(root)}, ${JSON.stringify(name)}, nine.ARGS);`);

describe("the floor of the guarantees (bench/runtime/guarantee-floor.mjs)", () => {
  it("gives what the runtime's first call gives, for the same tool and arguments", () => {
    const runtime =
      inFreshNode(`const { createRuntime, inProcessDispatcher } = await import(${JSON.stringify(runtimeUrl)});
const runtime = await createRuntime({ root: ${JSON.stringify(built)}, mode: "host", dispatchers: { required: inProcessDispatcher } });
const outcome = await runtime.call("t_0000", nine.ARGS);
if (!outcome.ok) throw new Error(outcome.error.code);
return outcome.content;`);
    expect(runtime.ok).toBe(true);
    const floor = floorCall(built);
    expect(floor).toEqual({ ok: true, value: runtime.value });
    expect(floor.value).toMatchObject({ ok: true });
  });

  it("refuses a lock whose toolHashes changed after the build (the seal)", () => {
    const root = changedCopy("seal", (at) => {
      const lock = readFileSync(join(at, "cave.lock"), "utf8");
      const line = /"t_0002": "sha256-[0-9a-f]/.exec(lock)!;
      const last = line[0].at(-1) === "0" ? "1" : "0";
      writeFileSync(join(at, "cave.lock"), lock.replace(line[0], `${line[0].slice(0, -1)}${last}`));
    });
    expect(floorCall(root)).toEqual({ ok: false, error: "guarantee-floor: the lock's seal does not match" });
  });

  it("refuses a tool entry changed after the build (its pin)", () => {
    const root = changedCopy("entry", (at) => {
      const lock = readFileSync(join(at, "cave.lock"), "utf8");
      writeFileSync(join(at, "cave.lock"), lock.replace('"timeoutMs": 30000', '"timeoutMs": 30001'));
    });
    expect(floorCall(root)).toEqual({ ok: false, error: "guarantee-floor: t_0000's entry does not match its pin" });
  });

  it("refuses the tool's input validator changed after the build (its pin)", () => {
    const lock = JSON.parse(readFileSync(join(built, "cave.lock"), "utf8"));
    const validator: string = lock.tools.t_0000.input.validation.module;
    const root = changedCopy("validator", (at) => writeFileSync(join(at, validator), "\n", { flag: "a" }));
    expect(floorCall(root)).toEqual({ ok: false, error: `guarantee-floor: ${validator} does not match its pin` });
  });

  it("refuses the tool's module and the SDK module changed after the build (their pins)", () => {
    const tampered = "\nglobalThis.tampered = true;\n";
    const moduleChanged = changedCopy("module", (at) =>
      writeFileSync(join(at, ".cave/bundles/tools/m_000.mjs"), tampered, { flag: "a" }),
    );
    expect(floorCall(moduleChanged)).toEqual({
      ok: false,
      error: "guarantee-floor: .cave/bundles/tools/m_000.mjs does not match its pin",
    });
    const sdkChanged = changedCopy("sdk", (at) =>
      writeFileSync(join(at, ".cave/sdk/cave.mjs"), tampered, { flag: "a" }),
    );
    expect(floorCall(sdkChanged)).toEqual({
      ok: false,
      error: "guarantee-floor: .cave/sdk/cave.mjs does not match its pin",
    });
  });

  it("refuses arguments the tool's input schema refuses, and a tool other than the lock's first", () => {
    expect(
      inFreshNode(
        `return floor.callWithGuaranteesOnly(${JSON.stringify(built)}, "t_0000", { ...nine.ARGS, quantity: 0 });`,
      ),
    ).toEqual({ ok: false, error: "guarantee-floor: the arguments do not validate" });
    expect(floorCall(built, "t_0001")).toEqual({
      ok: false,
      error: "guarantee-floor: t_0001 is not the lock's first tool, the only one this floor finds",
    });
  });
});
