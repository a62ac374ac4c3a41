import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyse } from "../../compiler/analyse/index.js";
import { discover } from "../../compiler/discover/index.js";
import { childScript } from "../../compiler/evaluate/child-script.js";
import { evaluate } from "../../compiler/evaluate/index.js";
import { deepFreeze, realmObjects } from "../../compiler/evaluate/freeze.js";
import { importAll, type Job, type Outcome } from "../../compiler/evaluate/pool.js";
import { SDK_HANDLE } from "../../compiler/evaluate/protocol.js";
import { bundleBody, sdkModule } from "../../compiler/evaluate/split.js";
import { bundleHeader, REQUIRE_SHIM } from "../../compiler/stage/bundle-file.js";
import { stage } from "../../compiler/stage/index.js";
import type { StagedModule, StageResult } from "../../compiler/types.js";
import { REPO_ROOT } from "../support/golden.js";
import { removeCopies, STAGE_CONFIG, writeProject } from "../support/projects.js";

afterAll(removeCopies);

/**
 * Build-time evaluation shares one frozen SDK per child: each bundle that begins with exactly its header and the
 * build's prelude is imported as its body with that SDK (split.ts); anything else, and any body that does not
 * import cleanly, is imported whole. These tests compare the two ways and check what a module can and cannot change.
 */

async function stageProject(root: string, modules?: readonly string[]): Promise<StageResult> {
  const found = await discover(root);
  const list = modules ?? analyse(root, found.files).modules;
  const staged = await stage(root, list, modules ? STAGE_CONFIG : found.config);
  expect(staged.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return staged;
}

const jobOf = (staged: StagedModule, prelude: string | undefined, key = staged.module): Job => ({
  module: key,
  label: staged.bundlePath,
  code: staged.code,
  body: prelude === undefined ? undefined : bundleBody(staged.module, staged.code, prelude),
});

async function importBoth(jobs: readonly Job[], prelude: string, timeoutMs = 5000): Promise<{ shared: Map<string, Outcome>; whole: Map<string, Outcome> }> {
  const script = await childScript();
  const shared = await importAll(jobs, script, { timeoutMs, cwd: REPO_ROOT, sdk: sdkModule(prelude) });
  const whole = await importAll(
    jobs.map(({ body: _, ...job }) => job),
    script,
    { timeoutMs, cwd: REPO_ROOT },
  );
  return { shared, whole };
}

/** An outcome without how it was imported, to compare the two ways. */
const result = (outcome: Outcome | undefined) => (outcome?.type === "imported" ? { type: "imported", exports: outcome.exports } : outcome);
const via = (outcome: Outcome | undefined) => (outcome?.type === "imported" ? outcome.sdk : outcome?.type);

/** A module whose one tool's description reports what it sees of the SDK (importAll does not cross-check with analysis). */
const probe = (name: string, before = "") => `import { schema, tool, SCHEMA_FORMATS, CaveError, artifact } from "cave";
${before}
const seen = {
  stringType: schema.string().type,
  formats: SCHEMA_FORMATS.length,
  errorExtra: (CaveError.prototype as any).extra ?? null,
  toolExtra: (tool as any).extra ?? null,
  artifactRecovery: artifact().recovery,
};
export const ${name} = tool({
  name: "${name}",
  description: JSON.stringify(seen),
  effect: "read",
  input: schema.object({ id: schema.string() }),
  async execute({ id }) {
    return { id };
  },
});
`;

const PRISTINE = { stringType: "string", formats: 26, errorExtra: null, toolExtra: null, artifactRecovery: "exact_ccr" };

function seen(outcome: Outcome | undefined): unknown {
  expect(outcome?.type).toBe("imported");
  const report = outcome?.type === "imported" ? outcome.exports[0] : undefined;
  return report?.kind === "tool" ? JSON.parse(String(report.tool.description)) : report;
}

describe("evaluate with a shared SDK: the split", () => {
  it("splits every bundle of a build, and refuses any bundle whose first bytes differ from header + prelude + newline", async () => {
    const root = writeProject({ "tools/a.ts": probe("a"), "tools/b.ts": probe("b") });
    const staged = await stageProject(root, ["tools/a.ts", "tools/b.ts"]);
    const prelude = staged.sdkPrelude!;
    expect(prelude.startsWith(`${REQUIRE_SHIM}\n`)).toBe(true);
    const a = staged.modules.get("tools/a.ts")!;
    const body = bundleBody("tools/a.ts", a.code, prelude)!;
    expect(body).toBeDefined();
    // The require shim, the shared SDK under the prelude's one name, then the rest of the bundle as it is.
    const rest = a.code.slice(bundleHeader("tools/a.ts").length + prelude.length + 1);
    expect(body).toBe(`${REQUIRE_SHIM}\nimport __caveSdk from ${JSON.stringify(SDK_HANDLE)};\n${rest}`);
    expect(rest).toMatch(/^\/\/ cave:src\/index\.ts\nvar \{ [^}]+ \} = __caveSdk;\n/); // the facade
    expect(body).not.toContain("var __caveSdk");

    const at = bundleHeader("tools/a.ts").length + prelude.indexOf("// src/index.ts");
    const changed = (code: string) => bundleBody("tools/a.ts", code, prelude);
    expect(changed(`${a.code.slice(0, at)}// src/index.tx${a.code.slice(at + "// src/index.ts".length)}`)).toBeUndefined(); // one byte of the prelude
    expect(bundleBody("tools/b.ts", a.code, prelude)).toBeUndefined(); // another module's header
    expect(changed(a.code.replace(`${prelude}\n`, `${prelude} \n`))).toBeUndefined(); // no newline right after the prelude
    expect(changed(a.code.replace("// Generated", "//  Generated"))).toBeUndefined();
    expect(bundleBody("tools/a.ts", a.code, `${prelude}\n`)).toBeUndefined(); // a prelude the bundle does not carry
    expect(bundleBody("tools/a.ts", a.code, prelude.slice(REQUIRE_SHIM.length + 1))).toBeUndefined(); // not the shape stage makes
    expect(sdkModule(prelude.slice(REQUIRE_SHIM.length + 1))).toBeUndefined();
    // A module that reads import.meta would see the body's URL instead of the whole bundle's (the runtime's): whole.
    const meta = await stageProject(writeProject({ "tools/m.ts": probe("m", "export const where = import.meta.url.length;") }), ["tools/m.ts"]);
    expect(bundleBody("tools/m.ts", meta.modules.get("tools/m.ts")!.code, meta.sdkPrelude!)).toBeUndefined();
  });

  it("imports a bundle whose prefix differs whole, with its own SDK, in a child that shares one", async () => {
    const root = writeProject({ "tools/a.ts": probe("a"), "tools/b.ts": probe("b") });
    const staged = await stageProject(root, ["tools/a.ts", "tools/b.ts"]);
    const prelude = staged.sdkPrelude!;
    const a = staged.modules.get("tools/a.ts")!;
    const b = staged.modules.get("tools/b.ts")!;
    // b's prelude differs by one byte in a comment: still a working bundle, but not this build's prelude.
    const edited = { ...b, code: b.code.replace("// src/index.ts", "// src/index.tx") };
    expect(edited.code).not.toBe(b.code);
    const outcomes = await importAll([jobOf(a, prelude), jobOf(edited, prelude)], await childScript(), { timeoutMs: 5000, cwd: root, sdk: sdkModule(prelude) });
    expect(via(outcomes.get("tools/a.ts"))).toBe("shared");
    expect(via(outcomes.get("tools/b.ts"))).toBe("own");
    expect(seen(outcomes.get("tools/b.ts"))).toEqual(PRISTINE);
  });

  it("imports everything whole when the child cannot evaluate the SDK, and when the stage result carries no prelude", async () => {
    const root = writeProject({ "tools/a.ts": probe("a") });
    const staged = await stageProject(root, ["tools/a.ts"]);
    const a = staged.modules.get("tools/a.ts")!;
    const outcomes = await importAll([jobOf(a, staged.sdkPrelude)], await childScript(), { timeoutMs: 5000, cwd: root, sdk: 'throw new Error("no SDK here");' });
    expect(via(outcomes.get("tools/a.ts"))).toBe("own");
    expect(seen(outcomes.get("tools/a.ts"))).toEqual(PRISTINE);
    expect(jobOf(a, undefined).body).toBeUndefined();
  });
});

describe("evaluate with a shared SDK: same results as importing whole bundles", () => {
  it("the example project: evaluate() gives the same result with and without the shared SDK, and splits every module", async () => {
    const root = join(REPO_ROOT, "examples", "support-desk");
    const found = await discover(root);
    const analysed = analyse(root, found.files);
    const staged = await stage(root, analysed.modules, found.config);
    expect(staged.diagnostics).toEqual([]);
    const shared = await evaluate(root, staged, analysed);
    const whole = await evaluate(root, { ...staged, sdkPrelude: undefined }, analysed);
    expect(shared.diagnostics).toEqual([]);
    expect(shared).toEqual(whole);
    expect(shared.tools.length).toBeGreaterThan(10);

    const jobs = [...staged.modules.values()].map((module) => jobOf(module, staged.sdkPrelude));
    const outcomes = await importAll(jobs, await childScript(), { timeoutMs: 10_000, cwd: root, sdk: sdkModule(staged.sdkPrelude!) });
    expect([...outcomes.values()].map(via)).toEqual(jobs.map(() => "shared"));
  });

  it("every fixture that stages: the same outcome for each module (exports, errors, exits, time-outs) either way", { timeout: 120_000 }, async () => {
    const jobs: Job[] = [];
    let prelude: string | undefined;
    for (const name of readdirSync(join(REPO_ROOT, "fixtures")).sort()) {
      const root = join(REPO_ROOT, "fixtures", name);
      const found = await discover(root);
      if (found.diagnostics.some((d) => d.severity === "error")) continue;
      const analysed = analyse(root, found.files);
      if (analysed.diagnostics.some((d) => d.severity === "error")) continue;
      const staged = await stage(root, analysed.modules, found.config, undefined, analysed.localExports);
      if (staged.diagnostics.some((d) => d.severity === "error") || staged.sdkPrelude === undefined) continue;
      // One SDK per build; every fixture is built with this package's, so the preludes are the same bytes.
      prelude ??= staged.sdkPrelude;
      expect(staged.sdkPrelude).toBe(prelude);
      for (const module of staged.modules.values()) jobs.push(jobOf(module, prelude, `${name}/${module.module}`));
    }
    expect(jobs.length).toBeGreaterThan(20);
    const { shared, whole } = await importBoth(jobs, prelude!, 1500);
    for (const job of jobs) expect(result(shared.get(job.module)), job.module).toEqual(result(whole.get(job.module)));
    const kinds = (outcomes: Map<string, Outcome>) => [...new Set([...outcomes.values()].map((o) => o.type))].sort();
    expect(kinds(whole)).toEqual(["imported", "threw", "timeout"]); // the comparison covers failures too
    // Modules that import cleanly ran their body with the shared SDK; the others were judged whole.
    for (const job of jobs) {
      const outcome = shared.get(job.module);
      if (outcome?.type === "imported" && job.body !== undefined) expect(outcome.sdk, job.module).toBe("shared");
    }
  });
});

describe("evaluate with a shared SDK: isolation", () => {
  it("a module that changes the SDK gets its own SDK changed, as at run time, and no later module sees the change", async () => {
    const files = {
      // Sorted, so imported in this order, one after the other in one child.
      "tools/a_assigns.ts": probe("a_assigns", "(schema as any).string = (options?: object) => schema.number(options);"),
      "tools/b_probe.ts": probe("b_probe"),
      "tools/c_pushes.ts": probe("c_pushes", 'SCHEMA_FORMATS.push("custom" as never);'),
      "tools/d_probe.ts": probe("d_probe"),
      "tools/e_prototype.ts": probe("e_prototype", "(CaveError.prototype as any).extra = 1; Object.defineProperty(tool, \"extra\", { value: 2 });"),
      "tools/f_probe.ts": probe("f_probe"),
      // A change made later by a timer, and the failure swallowed by the child: still judged whole.
      "tools/g_timer.ts": probe("g_timer", "setTimeout(() => { (schema as any).string = (options?: object) => schema.number(options); }, 0);\nawait new Promise((resolve) => setTimeout(resolve, 30));"),
      "tools/h_probe.ts": probe("h_probe"),
    };
    const root = writeProject(files);
    const modules = Object.keys(files);
    const staged = await stageProject(root, modules);
    const jobs = [...staged.modules.values()].map((module) => jobOf(module, staged.sdkPrelude));
    expect(jobs.every((job) => job.body !== undefined)).toBe(true);
    const outcomes = await importAll(jobs, await childScript(), { timeoutMs: 5000, cwd: root, sdk: sdkModule(staged.sdkPrelude!) });
    const report = (module: string) => ({ via: via(outcomes.get(module)), seen: seen(outcomes.get(module)) });

    expect(report("tools/a_assigns.ts")).toEqual({ via: "own", seen: { ...PRISTINE, stringType: "number" } });
    expect(report("tools/c_pushes.ts")).toEqual({ via: "own", seen: { ...PRISTINE, formats: 27 } });
    expect(report("tools/e_prototype.ts")).toEqual({ via: "own", seen: { ...PRISTINE, errorExtra: 1, toolExtra: 2 } });
    expect(report("tools/g_timer.ts")).toEqual({ via: "own", seen: { ...PRISTINE, stringType: "number" } });
    for (const probeModule of ["tools/b_probe.ts", "tools/d_probe.ts", "tools/f_probe.ts", "tools/h_probe.ts"]) {
      expect(report(probeModule), probeModule).toEqual({ via: "shared", seen: PRISTINE });
    }
  });

  it("deep-freezes what the SDK exports and what those reach, but not the realm's objects", () => {
    class Base {
      method(): number {
        return 1;
      }
    }
    const inner = { list: [1, { deep: true }] };
    const fn = Object.assign(() => inner, { attached: { x: 1 } });
    const exports = {};
    for (const [key, value] of Object.entries({ fn, instance: new Base(), Base, inner })) Object.defineProperty(exports, key, { get: () => value, enumerable: true });
    const realm = realmObjects();
    deepFreeze(exports, realm);
    for (const value of [exports, fn, fn.attached, inner, inner.list, inner.list[1], Base, Base.prototype]) expect(Object.isFrozen(value)).toBe(true);
    for (const value of [Object.prototype, Function.prototype, Array.prototype, Object.getPrototypeOf(async () => undefined), globalThis]) expect(Object.isFrozen(value)).toBe(false);
    expect(() => deepFreeze({ registry: new Map() }, realm)).toThrow(/Map/);
  });
});

describe("evaluate with a shared SDK: failures and the time limit", () => {
  it("a module that throws is judged whole (same message), and each attempt has the whole time limit", async () => {
    const files = {
      "tools/a_throws.ts": probe("a_throws", 'throw new Error("not configured");'),
      "tools/b_slow_throw.ts": probe("b_slow_throw", 'await new Promise((resolve) => setTimeout(resolve, 900));\nthrow new Error("gave up");'),
      "tools/c_exits.ts": probe("c_exits", "process.exit(4);"),
      "tools/d_hangs.ts": probe("d_hangs", "await new Promise(() => {});"),
      "tools/e_probe.ts": probe("e_probe"),
    };
    const root = writeProject(files);
    const staged = await stageProject(root, Object.keys(files));
    const jobs = [...staged.modules.values()].map((module) => jobOf(module, staged.sdkPrelude));
    // b takes 900 ms to throw with the shared SDK, then as long again whole: more than the limit in all, but each
    // attempt is within it, as the one import of the whole bundle was.
    const { shared, whole } = await importBoth(jobs, staged.sdkPrelude!, 1500);
    for (const job of jobs) expect(result(shared.get(job.module)), job.module).toEqual(result(whole.get(job.module)));
    expect(result(shared.get("tools/a_throws.ts"))).toEqual({ type: "threw", message: "Error: not configured", exitCode: null, rule: null });
    expect(result(shared.get("tools/b_slow_throw.ts"))).toEqual({ type: "threw", message: "Error: gave up", exitCode: null, rule: null });
    expect(result(shared.get("tools/c_exits.ts"))).toMatchObject({ type: "threw", exitCode: 4 });
    expect(result(shared.get("tools/d_hangs.ts"))).toEqual({ type: "timeout" });
    expect(via(shared.get("tools/e_probe.ts"))).toBe("shared");
  });
});
