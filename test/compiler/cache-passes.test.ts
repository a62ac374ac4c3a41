import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyse } from "../../compiler/analyse/index.js";
import { build } from "../../compiler/build.js";
import { PassCacheFile, type PassCache } from "../../compiler/cache/pass-cache.js";
import { discover } from "../../compiler/discover/index.js";
import { evaluate } from "../../compiler/evaluate/index.js";
import type { ExportReport } from "../../compiler/evaluate/protocol.js";
import { stage } from "../../compiler/stage/index.js";
import { compileValidators, type ValidatorCacheEntry } from "../../compiler/validators/index.js";
import { schema } from "../../src/index.js";
import { REPO_ROOT } from "../support/golden.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "cave-cache-passes-"));
  made.push(dir);
  return dir;
}

/** A project folder with its own node_modules, so its cache files are its own. */
function project(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, "node_modules"));
  return root;
}

/** A cache in memory that counts what it answered, to tell hits from work. */
class CountingCache<V> implements PassCache<V> {
  readonly entries = new Map<string, V>();
  hits = 0;
  misses = 0;
  sets = 0;
  get(input: unknown): V | undefined {
    const value = this.entries.get(JSON.stringify(input));
    if (value === undefined) this.misses++;
    else this.hits++;
    return value;
  }
  set(input: unknown, value: V): void {
    this.sets++;
    this.entries.set(JSON.stringify(input), value);
  }
  reset(): void {
    this.hits = this.misses = this.sets = 0;
  }
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
const order = json(
  schema.object({
    email: schema.string({ format: "email" }),
    items: schema.array(schema.object({ sku: schema.string({ maxLength: 20 }) }), { uniqueItems: true }),
  }),
);
const status = json(schema.object({ status: schema.union([schema.literal("open"), schema.literal("closed")]) }));

const toolModule = (name: string, description: string) => `import { schema, tool } from "cave";
export const ${name} = tool({
  name: "${name}",
  description: "${description}",
  effect: "read",
  input: schema.object({ id: schema.string({ maxLength: 12 }) }),
  output: schema.object({ id: schema.string() }),
  async execute({ id }) {
    return { id };
  },
});
`;

describe("validators cache", () => {
  it("a hit gives the same modules byte for byte without compiling; a changed schema misses and matches an uncached build", async () => {
    const root = tempDir();
    const cache = new CountingCache<ValidatorCacheEntry>();
    const schemas = [
      { jsonSchema: order, owner: 'tool "a" input' },
      { jsonSchema: status, owner: 'tool "a" output' },
    ];
    const first = await compileValidators(root, ".cave", schemas, { cache });
    expect(first.diagnostics).toEqual([]);
    expect(cache.sets).toBeGreaterThanOrEqual(2); // two schemas, and the preludes they need

    cache.reset();
    const again = await compileValidators(root, ".cave", schemas, { cache });
    expect(cache.sets).toBe(0);
    expect(cache.misses).toBe(0);
    expect(again).toEqual(first);

    cache.reset();
    const changed = json({ ...status, required: [] });
    const edited = await compileValidators(
      root,
      ".cave",
      [schemas[0]!, { jsonSchema: changed, owner: 'tool "a" output' }],
      { cache },
    );
    expect(cache.misses).toBe(1);
    expect(cache.sets).toBe(1);
    const uncached = await compileValidators(root, ".cave", [
      schemas[0]!,
      { jsonSchema: changed, owner: 'tool "a" output' },
    ]);
    expect(edited).toEqual(uncached);
    expect([...edited.validators.keys()]).not.toEqual([...first.validators.keys()]);
  });

  it("an entry of the wrong shape is a miss", async () => {
    const schemas = [{ jsonSchema: status, owner: 'tool "a" output' }];
    const cache = new CountingCache<ValidatorCacheEntry>();
    const fresh = await compileValidators(tempDir(), ".cave", schemas, { cache });
    for (const key of cache.entries.keys()) cache.entries.set(key, { code: 42, helpers: ["nope"] } as never);
    cache.reset();
    expect(await compileValidators(tempDir(), ".cave", schemas, { cache })).toEqual(fresh);
    expect(cache.sets).toBeGreaterThan(0);
  });

  it("a refused schema is not cached and is refused again", async () => {
    const cache = new CountingCache<ValidatorCacheEntry>();
    const bad = [{ jsonSchema: { type: "string", minLenght: 2 }, owner: 'tool "a" input' }];
    const first = await compileValidators(tempDir(), ".cave", bad, { cache });
    expect(first.diagnostics.map((d) => d.code)).toEqual(["CAVE6004"]);
    expect(cache.sets).toBe(0);
    const again = await compileValidators(tempDir(), ".cave", bad, { cache });
    expect(again.diagnostics).toEqual(first.diagnostics);
  });
});

// The worker thread runs the compiled compiler (dist/), so this runs after `npm run build` (as `npm test` does).
const DIST_PARALLEL = join(REPO_ROOT, "dist", "compiler", "validators", "parallel.js");

describe("parallel validator compilation", () => {
  it.skipIf(!existsSync(DIST_PARALLEL))(
    "compiles on a worker thread the same code as on this thread, in input order",
    async () => {
      const { compileSchemas } = (await import(
        DIST_PARALLEL
      )) as typeof import("../../compiler/validators/parallel.js");
      const { standaloneCompiler } = (await import(
        join(REPO_ROOT, "dist", "compiler", "validators", "compile.js")
      )) as typeof import("../../compiler/validators/compile.js");
      const schemas = Array.from({ length: 150 }, (_, i) =>
        json(
          schema.object({ [`field${i}`]: schema.string({ maxLength: i + 1, format: i % 2 === 0 ? "email" : "uri" }) }),
        ),
      );
      schemas.push({ type: "string", minLenght: 1 });
      const parallel = await compileSchemas(schemas);
      const compile = standaloneCompiler();
      expect(parallel).toEqual(schemas.map((one) => compile(one)));
      expect(parallel.at(-1)).toMatchObject({ ok: false, refusal: { code: "CAVE6004" } });
    },
  );
});

describe("evaluate cache", () => {
  it("an unchanged bundle is not imported again, the cross-check still runs, and a changed bundle misses", async () => {
    const root = project({
      "tools/a.ts": toolModule("alpha", "Reads alpha."),
      "tools/b.ts": toolModule("beta", "Reads beta."),
    });
    const found = await discover(root);
    const analysed = analyse(root, found.files);
    const staged = await stage(root, analysed.modules, found.config);
    expect(staged.diagnostics).toEqual([]);
    const cache = new CountingCache<readonly ExportReport[]>();

    const first = await evaluate(root, staged, analysed, { cache });
    expect(first.diagnostics).toEqual([]);
    expect(cache.sets).toBe(2);

    cache.reset();
    const again = await evaluate(root, staged, analysed, { cache });
    expect(cache.hits).toBe(2);
    expect(cache.sets).toBe(0);
    expect(again).toEqual(first);

    // An entry of the wrong shape is a miss: the module is imported again.
    const bad = new CountingCache<readonly ExportReport[]>();
    for (const key of cache.entries.keys()) bad.entries.set(key, [{ exportName: 1 }] as never);
    expect(await evaluate(root, staged, analysed, { cache: bad })).toEqual(first);
    expect(bad.sets).toBe(2);

    // The cached exports are still compared with what analysis read: a source that now says otherwise is caught.
    const edited = {
      ...analysed,
      tools: analysed.tools.map((tool) => (tool.name === "alpha" ? { ...tool, timeoutMs: 1234 } : tool)),
    };
    const checked = await evaluate(root, staged, edited, { cache });
    expect(checked.diagnostics.map((d) => d.code)).toEqual(["CAVE5005"]);
    expect(checked.diagnostics[0]!.message).toContain("timeout");

    writeFileSync(join(root, "tools/a.ts"), toolModule("alpha", "Reads alpha, now with care."));
    const reanalysed = analyse(root, found.files);
    const restaged = await stage(root, reanalysed.modules, found.config);
    cache.reset();
    const rebuilt = await evaluate(root, restaged, reanalysed, { cache });
    expect(cache.hits).toBe(1);
    expect(cache.sets).toBe(1);
    expect(rebuilt).toEqual(await evaluate(root, restaged, reanalysed));
    expect(rebuilt.tools.find((tool) => tool.name === "alpha")!.description).toBe("Reads alpha, now with care.");
  });
});

describe("PassCacheFile", () => {
  const identity = "sha256-identity";

  it("is written only by a writing cache and read back by a later one", () => {
    const root = project({});
    const readOnly = new PassCacheFile<{ n: number }>(root, "test", { identity, write: false });
    readOnly.set(["x"], { n: 1 });
    readOnly.save();
    expect(existsSync(join(root, "node_modules", ".cache", "cave"))).toBe(false);

    const writer = new PassCacheFile<{ n: number }>(root, "test", { identity, write: true });
    writer.set(["x"], { n: 1 });
    writer.save();
    expect(new PassCacheFile<{ n: number }>(root, "test", { identity, write: false }).get(["x"])).toEqual({ n: 1 });
    expect(new PassCacheFile<{ n: number }>(root, "test", { identity, write: false }).get(["y"])).toBeUndefined();
  });

  it("misses for another compiler identity, a hand-edited entry, a corrupted file and another project root", () => {
    const root = project({});
    const writer = new PassCacheFile<{ n: number }>(root, "test", { identity, write: true });
    writer.set(["x"], { n: 1 });
    writer.save();
    expect(new PassCacheFile(root, "test", { identity: "sha256-other", write: false }).get(["x"])).toBeUndefined();

    const folder = join(root, "node_modules", ".cache", "cave");
    const [file] = readdirSync(folder);
    const path = join(folder, file!);
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.replace('"n":1', '"n":2'));
    expect(new PassCacheFile(root, "test", { identity, write: false }).get(["x"])).toBeUndefined();
    writeFileSync(path, text.slice(0, text.length / 2));
    expect(new PassCacheFile(root, "test", { identity, write: false }).get(["x"])).toBeUndefined();
    writeFileSync(path, "[1, 2]");
    expect(new PassCacheFile(root, "test", { identity, write: false }).get(["x"])).toBeUndefined();

    writeFileSync(path, text);
    const sibling = join(root, "sibling");
    mkdirSync(sibling);
    expect(new PassCacheFile(sibling, "test", { identity, write: false }).get(["x"])).toBeUndefined();
  });

  it("keeps only what the last writing build used or made", () => {
    const root = project({});
    const first = new PassCacheFile<number>(root, "test", { identity, write: true });
    first.set(["old"], 1);
    first.set(["kept"], 2);
    first.save();
    const second = new PassCacheFile<number>(root, "test", { identity, write: true });
    expect(second.get(["kept"])).toBe(2);
    second.set(["new"], 3);
    second.save();
    const third = new PassCacheFile<number>(root, "test", { identity, write: false });
    expect([third.get(["old"]), third.get(["kept"]), third.get(["new"])]).toEqual([undefined, 2, 3]);
  });
});

describe("build with pass caches", () => {
  /** A copy of a fixture with its own node_modules folder, so its cache files are its own. */
  function copyFixture(name: string): string {
    const root = tempDir();
    cpSync(join(REPO_ROOT, "fixtures", name), root, { recursive: true });
    mkdirSync(join(root, "node_modules"));
    return root;
  }

  it("a one-file change rebuilt with warm pass caches gives the bytes of a build without any cache", async () => {
    const root = copyFixture("basic");
    const first = await build({ root });
    expect(first.ok).toBe(true);
    const cacheFiles = readdirSync(join(root, "node_modules", ".cache", "cave"))
      .map((name) => name.replace(/-[0-9a-f]{16}\.json$/, ""))
      .sort();
    expect(cacheFiles).toEqual(["build", "evaluate", "validators"]);

    const module = join(root, "tools", "policy.ts");
    writeFileSync(
      module,
      readFileSync(module, "utf8").replace("Read current refund policy.", "Read the current refund policy."),
    );
    const warm = await build({ root });
    expect(warm.ok).toBe(true);
    expect(warm.cached).toBe(false);
    const cold = await build({ root, cache: false, write: false });
    expect(warm.lockText).toBe(cold.lockText);
    expect([...warm.files]).toEqual([...cold.files]);
    expect(warm.lockText).toContain("Read the current refund policy.");
  });

  it("a build that fails before a pass leaves that pass's cache as it was", async () => {
    const root = copyFixture("basic");
    expect((await build({ root })).ok).toBe(true);
    const folder = join(root, "node_modules", ".cache", "cave");
    const before = Object.fromEntries(
      readdirSync(folder)
        .filter((name) => !name.startsWith("build-"))
        .map((name) => [name, readFileSync(join(folder, name), "utf8")]),
    );
    const module = join(root, "tools", "policy.ts");
    writeFileSync(module, `${readFileSync(module, "utf8")}\nexport const broken = ;\n`);
    const failed = await build({ root });
    expect(failed.diagnostics.map((d) => d.code)).toContain("CAVE3002");
    for (const [name, text] of Object.entries(before)) expect(readFileSync(join(folder, name), "utf8")).toBe(text);
  });

  it("a build that does not write, or does not use the cache, leaves no pass cache behind", async () => {
    const root = copyFixture("basic");
    expect((await build({ root, write: false })).ok).toBe(true);
    expect((await build({ root, cache: false })).ok).toBe(true);
    expect(existsSync(join(root, "node_modules", ".cache"))).toBe(false);
  });
});
