import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsedCanonicalJson } from "../../runtime/lock/canonical-text.js";
import { checkLockShape } from "../../runtime/lock/check-shape.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { REPO_ROOT } from "../support/golden.js";

// The start-up checks take fast paths for a lock written by cave build; these tests pin that the
// answers are the general path's, for such a lock and for everything off the fast path.

const exampleText = readFileSync(join(REPO_ROOT, "cave.lock.example"), "utf8");
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const example = (): Json => JSON.parse(exampleText) as Json;

describe("parsedCanonicalJson", () => {
  function same(text: string): void {
    const value: unknown = JSON.parse(text);
    const expected = (() => {
      try {
        return canonicalJson(value);
      } catch (thrown) {
        return `throws ${(thrown as Error).message}`;
      }
    })();
    const actual = (() => {
      try {
        return parsedCanonicalJson(value, text);
      } catch (thrown) {
        return `throws ${(thrown as Error).message}`;
      }
    })();
    expect(actual, text.slice(0, 80)).toBe(expected);
  }

  it("gives canonicalJson's bytes for a lock from cave build, pretty or not", () => {
    same(exampleText);
    same(JSON.stringify(JSON.parse(exampleText)));
    const { integrity: _integrity, ...body } = example();
    expect(parsedCanonicalJson(body, exampleText)).toBe(canonicalJson(body));
  });

  it.each([
    ['{"b":1,"a":2}', "keys out of order"],
    ['{"a":{"d":1,"c":[{"f":1,"e":2}]}}', "nested keys out of order"],
    ['{"9":1,"10":2}', "integer-like keys (property order differs from text order)"],
    ['{"10":1,"9":2}', "integer-like keys in code-unit order"],
    ['{"a":"\\ud800"}', "a lone surrogate in a value"],
    ['{"\\udc00":1}', "a lone surrogate in a key"],
    ['{"a":"\\u0041\\u00e9"}', "\\u escapes of ordinary characters"],
    ['{"a":1e400}', "a number that parses to Infinity"],
    ['{"a":-0,"b":1.50,"c":1e2,"d":0.000001,"e":1e-7}', "number spellings"],
    ['{"__proto__":{"x":1},"a":2}', "a __proto__ key"],
    ['{"a":1,"a":2}', "a duplicate key"],
    [`${"[".repeat(300)}1${"]".repeat(300)}`, "nesting past 256 levels"],
    ['{"é":"ü","e":"\\"quoted\\"\\n"}', "non-ASCII and escaped characters"],
    ['"text"', "a bare string"],
  ])("gives canonicalJson's answer for %s (%s)", (text) => {
    same(text);
  });
});

describe("checkLockShape", () => {
  const [first, second] = Object.keys(example().tools) as [string, string];
  const agent = Object.keys(example().agents)[0]!;

  it("passes a lock from cave build, and one with its keys in another order", () => {
    expect(checkLockShape(example())).toBeUndefined();
    const lock = example();
    const reversed: Json = {};
    for (const key of Object.keys(lock.tools[first]).reverse()) reversed[key] = lock.tools[first][key];
    lock.tools[first] = reversed;
    expect(checkLockShape(lock)).toBeUndefined();
  });

  it.each<[string, (lock: Json) => void, string]>([
    ["an unknown effect", (l) => (l.tools[first].effect = "delete"), `tools.${first}.effect must be one of read, write, idempotent, external`],
    ["missing keys, reported in the schema's order", (l) => { delete l.tools[first].timeoutMs; delete l.tools[first].module; }, `tools.${first}.module must be present`],
    ["missing top-level keys, in the schema's order", (l) => { delete l.agents; delete l.buildDir; }, "buildDir must be present"],
    ["an unknown key", (l) => (l.tools[first].zzz = 1), `tools.${first}.zzz must be absent (unknown key)`],
    ["an unknown plan key", (l) => (l.tools[first].result.plan.extra = 1), `tools.${first}.result.plan.extra must be absent (unknown key)`],
    ["a path leaving the project", (l) => (l.tools[first].source.bundle = "../outside.mjs"), `tools.${first}.source.bundle must be a POSIX path relative to the project root, inside it`],
    ["an absolute path", (l) => (l.tools[first].module = "/abs/tool.ts"), `tools.${first}.module must be a POSIX path relative to the project root, inside it`],
    ["a drive letter", (l) => (l.buildDir = "C:/build"), "buildDir must be a POSIX path relative to the project root, inside it"],
    ["a backslash", (l) => (l.tools[first].source.bundle = ".cave\\bundle.mjs"), `tools.${first}.source.bundle must be a POSIX path relative to the project root, inside it`],
    ["an empty segment", (l) => (l.tools[first].source.bundle = ".cave//bundle.mjs"), `tools.${first}.source.bundle must be a POSIX path relative to the project root, inside it`],
    ["a trailing slash", (l) => (l.tools[first].module = "tools/"), `tools.${first}.module must be a POSIX path relative to the project root, inside it`],
    ["a dot segment", (l) => (l.tools[first].module = "tools/./a.ts"), `tools.${first}.module must be a POSIX path relative to the project root, inside it`],
    ["an upper-case hash", (l) => (l.tools[first].source.sha256 = `sha256-${"A".repeat(64)}`), `tools.${first}.source.sha256 must be a sha256-<64 hex> hash`],
    ["a short validator hash", (l) => (l.tools[first].input.validation.sha256 = "sha256-abc"), `tools.${first}.input.validation.sha256 must be a sha256-<64 hex> hash`],
    ["a repeated environment name", (l) => (l.tools[first].sandbox.env = ["API_KEY", "API_KEY"]), `tools.${first}.sandbox.env must be an array of distinct environment names`],
    ["a bad environment name", (l) => (l.tools[first].sandbox.env = ["1KEY"]), `tools.${first}.sandbox.env must be an array of distinct environment names`],
    ["unsorted nested tools", (l) => (l.tools[first].nestedTools = [second, first].sort().reverse()), `tools.${first}.nestedTools must be a sorted array of distinct tool names`],
    ["an unknown validation kind", (l) => (l.tools[first].input.validation.kind = "runtime"), `tools.${first}.input.validation.kind must be "precompiled" or "opaque"`],
    ["a dangling nested tool", (l) => (l.tools[first].nestedTools = ["ghost"]), `tools.${first}.nestedTools must be names of locked tools ("ghost" is not in the lock)`],
    ["a dangling agent tool", (l) => (l.agents[agent].tools = ["ghost"]), `agents.${agent}.tools must be names of locked tools ("ghost" is not in the lock)`],
    ["a tool that is not an object", (l) => (l.tools[first] = []), `tools.${first} must be an object`],
  ])("reports %s", (_what, mutate, expected) => {
    const lock = example();
    mutate(lock);
    expect(checkLockShape(lock)).toBe(expected);
  });

  it("accepts every relative path form cave build writes, and dotted names that are not . or ..", () => {
    for (const path of [".cave/bundles/tools/a.mjs", "tools/.hidden/a.ts", "a/...", "a..b/c", "é/ü.ts"]) {
      const lock = example();
      lock.tools[first].module = path;
      expect(checkLockShape(lock), path).toBeUndefined();
    }
  });
});
