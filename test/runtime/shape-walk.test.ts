import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  definitions,
  header as ajvHeaderValidator,
  headerSchema,
  tool as ajvTool,
} from "../../runtime/lock/lock-shape.generated.js";
import { checkLockTopShape } from "../../runtime/lock/check-shape.js";
import { firstShapeError } from "../../runtime/lock/shape-walk.js";
import { shapeProblem, type ShapeError } from "../../runtime/lock/shape-problem.js";
import { REPO_ROOT } from "../support/golden.js";

// The runtime checks a tool's entry by walking the lock schema as data (runtime/lock/shape-walk.ts) instead of
// running Ajv's validator compiled ahead from it, which stays in lock-shape.generated.ts as the reference: on every
// committed lock's entries and on seeded mutations of them, the walk finds the same first problem (the same error
// object, the pair of equal items uniqueItems names aside), so in the same words.

type Json = unknown;
const ajv = ajvTool as unknown as { (data: unknown): boolean; errors?: ShapeError[] | null };
const AT = "tools.t";
/** What each says of an entry: undefined when it has the tool's shape, else the problem in shape-problem.ts's words. */
const ajvSays = (entry: Json): string | undefined => (ajv(entry) ? undefined : shapeProblem(ajv.errors![0]!, AT));
const walkSays = (entry: Json): string | undefined => {
  const error = firstShapeError(definitions as Record<string, unknown>, "tool", entry);
  return error === undefined ? undefined : shapeProblem(error, AT);
};
/** The first error itself, but for which two equal items uniqueItems names (Ajv's loops differ by the items' types). */
const comparable = (error: ShapeError | undefined): unknown =>
  error === undefined ? undefined : { ...error, params: error.keyword === "uniqueItems" ? {} : error.params };
const ajvError = (entry: Json): unknown => (ajv(entry) ? undefined : comparable(ajv.errors![0]));
const walkError = (entry: Json): unknown =>
  comparable(firstShapeError(definitions as Record<string, unknown>, "tool", entry));

/** Every tool entry of the v2 locks committed in the repository, distinct. */
function committedEntries(): Json[] {
  return committedLocks().flatMap((lock) => Object.values(lock.tools!));
}

/** Every v2 lock committed in the repository (the example and the fixtures), distinct by their entries and headers. */
function committedLocks(): { tools?: Record<string, Json>; [key: string]: Json }[] {
  const files = execFileSync("git", ["ls-files", "fixtures", "cave.lock.example"], { cwd: REPO_ROOT, encoding: "utf8" })
    .split("\n")
    .filter((file) => file.endsWith(".lock") || file === "cave.lock.example");
  const entries = new Set<string>();
  const locks: { tools?: Record<string, Json>; [key: string]: Json }[] = [];
  for (const file of files) {
    let lock: { lockfileVersion?: unknown; tools?: Record<string, Json> };
    try {
      lock = JSON.parse(readFileSync(join(REPO_ROOT, file), "utf8")) as typeof lock;
    } catch {
      continue;
    }
    if (lock.lockfileVersion !== 2 || lock.tools === undefined) continue;
    // Each entry once: a lock whose entries were all seen keeps only its header.
    const tools: Record<string, Json> = {};
    for (const [name, entry] of Object.entries(lock.tools)) {
      const text = JSON.stringify(entry);
      if (!entries.has(text)) entries.add(text), (tools[name] = entry);
    }
    locks.push({ ...lock, tools });
  }
  return locks;
}

/** The paths to every value inside `value` (the root included). */
function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...paths(item, [...at, i])));
  else if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value)) out.push(...paths(item, [...at, key]));
  return out;
}

/** `value` with the value at `path` replaced (or, with `remove`, deleted). */
function changed(value: Json, path: readonly (string | number)[], replace: (old: Json) => Json, remove = false): Json {
  const copy = structuredClone(value);
  if (path.length === 0) return replace(copy);
  let parent = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (remove && Array.isArray(parent)) parent.splice(last as number, 1);
  else if (remove) delete parent[last];
  else parent[last] = replace(parent[last]);
  return copy;
}

const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Replacements that cross the schema's lines: other types, empty and bad strings, out-of-range numbers, extra keys. */
const REPLACEMENTS: readonly ((old: Json) => Json)[] = [
  () => null,
  () => 0,
  () => -1,
  () => 1.5,
  () => 4294967296,
  () => true,
  () => "",
  () => "x",
  () => "../escape",
  () => "/absolute",
  () => "a//b",
  () => "A-b",
  () => "sha256-00",
  () => `sha256-${"0".repeat(64)}`,
  () => [],
  () => ({}),
  () => ({ kind: "precompiled" }),
  () => ({ policy: "artifact" }),
  () => ({ kind: "bounded", tokens: -1 }),
  () => ["b", "a"],
  () => [1],
  () => ["1a", "1a"],
  () => [1, 1],
  () => ({ read: [1], write: [] }),
  () => ({ read: ["a", "a"], write: ["../x"] }),
  (old) => (typeof old === "string" ? `${old}/` : old),
  (old) => (typeof old === "string" ? `${old}\u00e9` : old),
  (old) => (typeof old === "string" ? old.toUpperCase() : old),
  (old) => (typeof old === "string" ? "x".repeat(513) : old),
  (old) => (typeof old === "number" ? old + 1 : old),
  (old) => (typeof old === "number" ? -old : old),
  (old) => (Array.isArray(old) ? [...old, ...old] : old),
  (old) => (Array.isArray(old) ? [...old].reverse() : old),
  (old) => (Array.isArray(old) ? [...old, "z"] : old),
  (old) => (Array.isArray(old) ? [...old, null] : old),
  (old) => (isObject(old) ? { ...old, zz_unknown: 1 } : old),
  (old) => (isObject(old) ? { "a/b~c": 1, ...old } : old),
  (old) => (isObject(old) ? Object.fromEntries(Object.entries(old).reverse()) : old),
  (old) => (isObject(old) ? Object.fromEntries(Object.entries(old).slice(1)) : old),
  (old) => (typeof old === "boolean" ? !old : old),
];

/**
 * Seeded mutations of each of `values`: at every place, the value replaced, replaced otherwise, a second place changed
 * too, and (one time in two) the value removed.
 */
function* mutations(values: readonly Json[], seed: number): Generator<{ path: (string | number)[]; mutated: Json }> {
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  for (const value of values) {
    const all = paths(value);
    for (const path of all) {
      const once = changed(value, path, pick(REPLACEMENTS));
      const tries = [
        () => once,
        () => changed(value, path, pick(REPLACEMENTS)),
        () => changed(once, pick(all), pick(REPLACEMENTS)),
        ...(path.length > 0 && random() < 0.5 ? [() => changed(value, path, () => undefined, true)] : []),
      ];
      for (const make of tries) {
        let mutated: Json;
        try {
          mutated = make();
        } catch {
          continue; // a second change inside a value the first replaced: no such place
        }
        yield { path, mutated };
      }
    }
  }
}

describe("the tool entry's schema walked as data, against Ajv's validator compiled from it", () => {
  const entries = committedEntries();

  it("accepts every tool entry of the committed locks, as Ajv does", () => {
    expect(entries.length).toBeGreaterThan(20);
    for (const entry of entries) expect([ajvSays(entry), walkSays(entry)]).toEqual([undefined, undefined]);
  });

  it("says what Ajv says of seeded mutations of every entry: each value replaced or removed, one and two at a time", () => {
    const words = new Set<string>();
    let accepted = 0;
    let refused = 0;
    for (const { path, mutated } of mutations(entries, 20)) {
      const expected = ajvSays(mutated);
      const said = walkSays(mutated);
      if (said !== expected) expect.fail(`${JSON.stringify(path)}: Ajv says ${expected}, the walk ${said}`);
      expect(walkError(mutated)).toEqual(ajvError(mutated));
      if (expected === undefined) accepted++;
      else refused++, words.add(expected.replace(/^tools\.t\.?[^ ]*/, ""));
    }
    // Both verdicts, and many different problems, are exercised.
    expect(accepted).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(10000);
    expect(words.size).toBeGreaterThan(25);
  });
});

describe("the header's schema walked as data (start-up), against Ajv's header validator (whole-lock checks)", () => {
  const ajvHeader = ajvHeaderValidator as unknown as { (data: unknown): boolean; errors?: ShapeError[] | null };
  const withHeader = { ...(definitions as Record<string, unknown>), "(header)": headerSchema };
  const ajvHeaderError = (header: Json): unknown => (ajvHeader(header) ? undefined : comparable(ajvHeader.errors![0]));
  const walkHeaderError = (header: Json): unknown => comparable(firstShapeError(withHeader, "(header)", header));
  const headers = committedLocks().flatMap(({ tools: _tools, ...header }) => [header, { ...header, toolHashes: {} }]);

  it("accepts every committed lock's header, as Ajv does, and so does the runtime's start-up check", () => {
    expect(headers.length).toBeGreaterThan(20);
    for (const header of headers) {
      expect([ajvHeaderError(header), walkHeaderError(header)]).toEqual([undefined, undefined]);
      const names = new Set(Object.keys((header as { toolHashes: object }).toolHashes));
      if (names.size > 0) expect(checkLockTopShape(header as Record<string, unknown>, names)).toBeUndefined();
    }
  });

  it("finds the same first problem as Ajv in seeded mutations of every header: each value replaced or removed, one and two at a time", () => {
    const problems = new Set<string>();
    let accepted = 0;
    let refused = 0;
    for (const { path, mutated } of mutations(headers, 7)) {
      const expected = ajvHeaderError(mutated);
      const found = walkHeaderError(mutated);
      if (JSON.stringify(found) !== JSON.stringify(expected))
        expect.fail(`${JSON.stringify(path)}: Ajv ${JSON.stringify(expected)}, the walk ${JSON.stringify(found)}`);
      if (expected === undefined) accepted++;
      else refused++, problems.add((expected as ShapeError).schemaPath);
    }
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(2000);
    expect(problems.size).toBeGreaterThan(25);
  });
});
