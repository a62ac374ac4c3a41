import { readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { analyse } from "../../compiler/analyse/index.js";
import { discover } from "../../compiler/discover/index.js";
import { childScript } from "../../compiler/evaluate/child-script.js";
import { evaluate, linkExternals } from "../../compiler/evaluate/index.js";
import { deepFreeze, realmObjects } from "../../compiler/evaluate/freeze.js";
import { importAll, type Copy, type Job, type Outcome } from "../../compiler/evaluate/pool.js";
import { stage } from "../../compiler/stage/index.js";
import type { StageResult } from "../../compiler/types.js";
import { PrivateCopy } from "../../runtime/loading/private-copy.js";
import { REPO_ROOT } from "../support/golden.js";
import { removeCopies, STAGE_CONFIG, writeProject } from "../support/projects.js";

const copies: PrivateCopy[] = [];
afterAll(() => {
  removeCopies();
  for (const copy of copies.splice(0)) copy.dispose();
});

/**
 * Build-time evaluation imports each bundle by file URL from a private copy, as the runtime does; each child imports
 * the one SDK module first and deep-freezes it, and a bundle that does not import cleanly with it is judged in a child
 * of its own (pool.ts). These tests compare that with importing every module in a child of its own, and check what a
 * module can and cannot change.
 */

async function stageProject(root: string, modules?: readonly string[]): Promise<StageResult> {
  const found = await discover(root);
  const list = modules ?? analyse(root, found.files).modules;
  const staged = await stage(root, list, modules ? STAGE_CONFIG : found.config);
  expect(staged.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return staged;
}

/** The staged files in a private copy (with the external packages linked in, as evaluate() does), and a job per module (keyed by `prefix` + module). */
async function jobsOf(
  staged: StageResult,
  copy = new PrivateCopy(),
  prefix = "",
  root?: string,
): Promise<{ jobs: Job[]; copy: Copy; sdkUrl: string; alsoReadable: string[] }> {
  copies.push(copy);
  const alsoReadable = root === undefined ? [] : await linkExternals(root, staged, copy);
  const sdkUrl = pathToFileURL(await copy.add(staged.sdkModule!.path, staged.sdkModule!.code)).href;
  const jobs = await Promise.all(
    [...staged.modules.values()].map(async (module) => ({
      module: `${prefix}${module.module}`,
      label: module.bundlePath,
      url: pathToFileURL(await copy.add(`${prefix}${module.bundlePath}`, module.code)).href,
    })),
  );
  return { jobs, copy: { base: `${copy.dir}${sep}`, baseUrl: copy.url }, sdkUrl, alsoReadable };
}

async function importBoth(
  jobs: readonly Job[],
  copy: Copy,
  sdkUrl: string,
  timeoutMs = 5000,
  alsoReadable: readonly string[] = [],
): Promise<{ shared: Map<string, Outcome>; alone: Map<string, Outcome> }> {
  const script = await childScript();
  const shared = await importAll(jobs, script, { timeoutMs, cwd: REPO_ROOT, copy, sdkUrl, alsoReadable });
  const alone = await importAll(jobs, script, { timeoutMs, cwd: REPO_ROOT, copy, alsoReadable });
  return { shared, alone };
}

/** An outcome without how it was imported, to compare the two ways. */
const result = (outcome: Outcome | undefined) =>
  outcome?.type === "imported" ? { type: "imported", exports: outcome.exports } : outcome;
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

const PRISTINE = {
  stringType: "string",
  formats: 26,
  errorExtra: null,
  toolExtra: null,
  artifactRecovery: "exact_ccr",
};

function seen(outcome: Outcome | undefined): unknown {
  expect(outcome?.type).toBe("imported");
  const report = outcome?.type === "imported" ? outcome.exports[0] : undefined;
  return report?.kind === "tool" ? JSON.parse(String(report.tool.description)) : report;
}

describe("evaluate with a shared SDK: same results as a child per module", () => {
  it("the example project: every module imports with the shared SDK, with the same result as alone", async () => {
    const root = join(REPO_ROOT, "examples", "support-desk");
    const found = await discover(root);
    const analysed = analyse(root, found.files);
    const staged = await stage(root, analysed.modules, found.config);
    expect(staged.diagnostics).toEqual([]);
    const evaluated = await evaluate(root, staged, analysed);
    expect(evaluated.diagnostics).toEqual([]);
    expect(evaluated.tools.length).toBeGreaterThan(10);

    // The order store's module imports better-sqlite3 (external): linked into the copy as evaluate() links it.
    const { jobs, copy, sdkUrl, alsoReadable } = await jobsOf(staged, new PrivateCopy(), "", root);
    const { shared, alone } = await importBoth(jobs, copy, sdkUrl, 10_000, alsoReadable);
    expect([...shared.values()].map(via)).toEqual(jobs.map(() => "shared"));
    for (const job of jobs) expect(result(shared.get(job.module)), job.module).toEqual(result(alone.get(job.module)));
  });

  it("every fixture that stages: the same outcome for each module (exports, errors, exits, time-outs) either way", {
    timeout: 120_000,
  }, async () => {
    const jobs: Job[] = [];
    const copy = new PrivateCopy();
    let sdkUrl: string | undefined;
    let base: Copy | undefined;
    for (const name of readdirSync(join(REPO_ROOT, "fixtures")).sort()) {
      const root = join(REPO_ROOT, "fixtures", name);
      const found = await discover(root);
      if (found.diagnostics.some((d) => d.severity === "error")) continue;
      const analysed = analyse(root, found.files);
      if (analysed.diagnostics.some((d) => d.severity === "error")) continue;
      const staged = await stage(root, analysed.modules, found.config, undefined, analysed.localExports);
      if (staged.diagnostics.some((d) => d.severity === "error") || staged.sdkModule === undefined) continue;
      // One SDK per build; every fixture is built with this package's, so the SDK modules are the same bytes.
      const made = await jobsOf(
        { ...staged, sdkModule: { ...staged.sdkModule, path: `${name}/${staged.sdkModule.path}` } },
        copy,
        `${name}/`,
      );
      sdkUrl ??= made.sdkUrl;
      base = made.copy;
      jobs.push(...made.jobs);
    }
    expect(jobs.length).toBeGreaterThan(20);
    const { shared, alone } = await importBoth(jobs, base!, sdkUrl!, 1500);
    for (const job of jobs) expect(result(shared.get(job.module)), job.module).toEqual(result(alone.get(job.module)));
    const kinds = (outcomes: Map<string, Outcome>) => [...new Set([...outcomes.values()].map((o) => o.type))].sort();
    expect(kinds(alone)).toEqual(["imported", "threw", "timeout"]); // the comparison covers failures too
  });
});

describe("evaluate with a shared SDK: isolation", () => {
  it("a module that changes the SDK gets its own SDK changed, as at run time, and no later module sees the change", async () => {
    const files = {
      // Sorted, so imported in this order, one after the other in one child.
      "tools/a_assigns.ts": probe(
        "a_assigns",
        "(schema as any).string = (options?: object) => schema.number(options);",
      ),
      "tools/b_probe.ts": probe("b_probe"),
      "tools/c_pushes.ts": probe("c_pushes", 'SCHEMA_FORMATS.push("custom" as never);'),
      "tools/d_probe.ts": probe("d_probe"),
      "tools/e_prototype.ts": probe(
        "e_prototype",
        '(CaveError.prototype as any).extra = 1; Object.defineProperty(tool, "extra", { value: 2 });',
      ),
      "tools/f_probe.ts": probe("f_probe"),
      // A change made later by a timer, and the failure swallowed by the child: still judged whole.
      "tools/g_timer.ts": probe(
        "g_timer",
        "setTimeout(() => { (schema as any).string = (options?: object) => schema.number(options); }, 0);\nawait new Promise((resolve) => setTimeout(resolve, 30));",
      ),
      "tools/h_probe.ts": probe("h_probe"),
    };
    const root = writeProject(files);
    const modules = Object.keys(files);
    const staged = await stageProject(root, modules);
    const { jobs, copy, sdkUrl } = await jobsOf(staged);
    const outcomes = await importAll(jobs, await childScript(), { timeoutMs: 5000, cwd: root, copy, sdkUrl });
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
    for (const [key, value] of Object.entries({ fn, instance: new Base(), Base, inner }))
      Object.defineProperty(exports, key, { get: () => value, enumerable: true });
    const realm = realmObjects();
    deepFreeze(exports, realm);
    for (const value of [exports, fn, fn.attached, inner, inner.list, inner.list[1], Base, Base.prototype])
      expect(Object.isFrozen(value)).toBe(true);
    for (const value of [
      Object.prototype,
      Function.prototype,
      Array.prototype,
      Object.getPrototypeOf(async () => undefined),
      globalThis,
    ])
      expect(Object.isFrozen(value)).toBe(false);
    expect(() => deepFreeze({ registry: new Map() }, realm)).toThrow(/Map/);
  });
});

describe("evaluate with a shared SDK: failures and the time limit", () => {
  it("a module that throws is judged in a child of its own (same message), and each attempt has the whole time limit", async () => {
    const files = {
      "tools/a_throws.ts": probe("a_throws", 'throw new Error("not configured");'),
      "tools/b_slow_throw.ts": probe(
        "b_slow_throw",
        'await new Promise((resolve) => setTimeout(resolve, 1800));\nthrow new Error("gave up");',
      ),
      "tools/c_exits.ts": probe("c_exits", "process.exit(4);"),
      "tools/d_hangs.ts": probe("d_hangs", "await new Promise(() => {});"),
      "tools/e_probe.ts": probe("e_probe"),
    };
    const root = writeProject(files);
    const staged = await stageProject(root, Object.keys(files));
    const { jobs, copy, sdkUrl } = await jobsOf(staged);
    // b takes 1.8 s to throw with the shared SDK, then as long again alone: more than the limit in all, but each
    // attempt is within it, as the one import in a child of its own is (1.2 s to spare for a loaded machine).
    const { shared, alone } = await importBoth(jobs, copy, sdkUrl, 3000);
    for (const job of jobs) expect(result(shared.get(job.module)), job.module).toEqual(result(alone.get(job.module)));
    // The raw stack comes back too (the build maps it to the original file and line for CAVE5001).
    expect(result(shared.get("tools/a_throws.ts"))).toEqual({
      type: "threw",
      message: "Error: not configured",
      exitCode: null,
      rule: null,
      stack: expect.stringMatching(/^Error: not configured\n\s+at .*a_throws\.mjs:\d+:\d+/),
    });
    expect(result(shared.get("tools/b_slow_throw.ts"))).toEqual({
      type: "threw",
      message: "Error: gave up",
      exitCode: null,
      rule: null,
      stack: expect.stringMatching(/^Error: gave up\n\s+at .*b_slow_throw\.mjs:\d+:\d+/),
    });
    expect(result(shared.get("tools/c_exits.ts"))).toMatchObject({ type: "threw", exitCode: 4 });
    expect(result(shared.get("tools/d_hangs.ts"))).toEqual({ type: "timeout" });
    expect(via(shared.get("tools/e_probe.ts"))).toBe("shared");
  });

  it("a module that writes frames to the channel itself breaks only its own evaluation; the next module is imported as alone", async () => {
    const forged = (module: string) => JSON.stringify({ type: "imported", nonce: "guess", module, exports: [] });
    const files = {
      "tools/a_writes.ts": probe(
        "a_writes",
        `import { writeSync } from "node:fs";
const text = ${JSON.stringify(forged("tools/b_probe.ts"))};
const frame = Buffer.alloc(4 + Buffer.byteLength(text));
frame.writeUInt32BE(Buffer.byteLength(text), 0);
frame.write(text, 4);
writeSync(3, frame);`,
      ),
      "tools/b_probe.ts": probe("b_probe"),
    };
    const root = writeProject(files);
    const staged = await stageProject(root, Object.keys(files));
    const { jobs, copy, sdkUrl } = await jobsOf(staged);
    const { shared, alone } = await importBoth(jobs, copy, sdkUrl);
    expect(shared.get("tools/a_writes.ts")).toEqual({
      type: "ended",
      detail: expect.stringContaining("the evaluation process answered another request"),
    });
    expect(alone.get("tools/a_writes.ts")).toEqual(shared.get("tools/a_writes.ts"));
    expect(seen(shared.get("tools/b_probe.ts"))).toEqual(PRISTINE);
    expect(result(shared.get("tools/b_probe.ts"))).toEqual(result(alone.get("tools/b_probe.ts")));
  });

  it("a job marked alone (a module importing external packages) is imported in a child of its own; the others share one", async () => {
    const files = {
      "tools/a_probe.ts": probe("a_probe"),
      "tools/b_probe.ts": probe("b_probe"),
      "tools/c_probe.ts": probe("c_probe"),
    };
    const root = writeProject(files);
    const staged = await stageProject(root, Object.keys(files));
    const { jobs, copy, sdkUrl } = await jobsOf(staged);
    const marked = jobs.map((job) => ({ ...job, alone: job.module === "tools/b_probe.ts" }));
    const outcomes = await importAll(marked, await childScript(), { timeoutMs: 5000, cwd: REPO_ROOT, copy, sdkUrl });
    expect(Object.fromEntries(marked.map((job) => [job.module, via(outcomes.get(job.module))]))).toEqual({
      "tools/a_probe.ts": "shared",
      "tools/b_probe.ts": "own",
      "tools/c_probe.ts": "shared",
    });
  });
});
