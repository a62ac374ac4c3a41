import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { definitions, tool as ajvTool } from "../../runtime/lock/lock-shape.generated.js";
import { acceptsShape } from "../../runtime/lock/shape-accepts.js";
import { REPO_ROOT } from "../support/golden.js";

// runtime/lock/shape-accepts.ts reads a tool's entry against the lock schema as data, and the runtime asks Ajv's
// validator only when it does not accept: it must never accept what Ajv refuses. It is exact on a schema of the
// keywords it knows, so these hold it to Ajv's verdict both ways, on every committed lock's entries and on seeded
// mutations of them.

type Json = unknown;
const toolSchema = (definitions as Record<string, unknown>).tool;
const accepts = (entry: Json): boolean => acceptsShape(toolSchema, entry, definitions as Record<string, unknown>);
const ajvAccepts = (entry: Json): boolean => (ajvTool as (data: unknown) => boolean)(entry);

/** Every tool entry of the v2 locks committed in the repository, distinct. */
function committedEntries(): Json[] {
  const files = execFileSync("git", ["ls-files", "fixtures", "cave.lock.example"], { cwd: REPO_ROOT, encoding: "utf8" })
    .split("\n")
    .filter((file) => file.endsWith(".lock") || file === "cave.lock.example");
  const seen = new Map<string, Json>();
  for (const file of files) {
    let lock: { lockfileVersion?: unknown; tools?: Record<string, Json> };
    try {
      lock = JSON.parse(readFileSync(join(REPO_ROOT, file), "utf8")) as typeof lock;
    } catch {
      continue;
    }
    if (lock.lockfileVersion !== 2 || lock.tools === undefined) continue;
    for (const entry of Object.values(lock.tools)) seen.set(JSON.stringify(entry), entry);
  }
  return [...seen.values()];
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
  () => "sha256-00",
  () => `sha256-${"0".repeat(64)}`,
  () => [],
  () => ({}),
  (old) => (typeof old === "string" ? `${old}/` : old),
  (old) => (typeof old === "string" ? `${old}\u00e9` : old),
  (old) => (typeof old === "string" ? old.toUpperCase() : old),
  (old) => (typeof old === "number" ? old + 1 : old),
  (old) => (typeof old === "number" ? -old : old),
  (old) => (Array.isArray(old) ? [...old, ...old] : old),
  (old) => (Array.isArray(old) ? [...old].reverse() : old),
  (old) => (Array.isArray(old) ? [...old, "z"] : old),
  (old) => (typeof old === "object" && old !== null && !Array.isArray(old) ? { ...old, zz_unknown: 1 } : old),
  (old) => (typeof old === "boolean" ? !old : old),
];

describe("acceptsShape (the tool entry read as data) against Ajv's compiled validator", () => {
  const entries = committedEntries();

  it("accepts every tool entry of the committed locks, as Ajv does (so the runtime's first read skips Ajv)", () => {
    expect(entries.length).toBeGreaterThan(20);
    for (const entry of entries) {
      expect(ajvAccepts(entry)).toBe(true);
      expect(accepts(entry)).toBe(true);
    }
  });

  it("gives Ajv's verdict on seeded mutations of every entry: each value replaced or removed", () => {
    let seed = 20;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const verdicts = { accepted: 0, refused: 0 };
    for (const entry of entries) {
      for (const path of paths(entry)) {
        const tries = [
          changed(entry, path, REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)]!),
          changed(entry, path, REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)]!),
          ...(path.length > 0 && random() < 0.5 ? [changed(entry, path, () => undefined, true)] : []),
        ];
        for (const mutated of tries) {
          const ajv = ajvAccepts(mutated);
          if (accepts(mutated) !== ajv) expect.fail(`${JSON.stringify(path)}: Ajv says ${ajv} for ${JSON.stringify(mutated)}`);
          verdicts[ajv ? "accepted" : "refused"]++;
        }
      }
    }
    // Both verdicts are exercised, many times.
    expect(verdicts.accepted).toBeGreaterThan(500);
    expect(verdicts.refused).toBeGreaterThan(5000);
  });

  it("answers false, leaving the verdict to Ajv, for a schema with a keyword it does not read", () => {
    const schema = { type: "object", format: "date-time" };
    expect(acceptsShape(schema, {}, {})).toBe(false);
    expect(acceptsShape({ oneOf: [{ type: "string" }, { type: "string", format: "email" }] }, "x", {})).toBe(false);
    expect(acceptsShape({ not: { format: "email" } }, "x", {})).toBe(false);
    expect(acceptsShape({ $ref: "#/definitions/missing" }, "x", {})).toBe(false);
  });

  it("reads oneOf as exactly one branch (the lock's unions are told apart by a tag, so the mutations cannot show it)", () => {
    expect(acceptsShape({ oneOf: [{ type: "string" }, { minLength: 1 }] }, "x", {})).toBe(false);
    expect(acceptsShape({ oneOf: [{ type: "string" }, { minLength: 1 }] }, 3, {})).toBe(true);
  });
});
