import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compactLock } from "../../runtime/lock/compact-text.js";
import { checkLockShape } from "../../runtime/lock/check-shape.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { REPO_ROOT } from "../support/golden.js";

// The start-up checks take a fast path for a lock written by cave build; these tests pin that it
// never changes what a lock means, and answers only for what it fully understands.

const exampleText = readFileSync(join(REPO_ROOT, "cave.lock.example"), "utf8");
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const example = (): Json => JSON.parse(exampleText) as Json;

describe("compactLock", () => {
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return "not JSON";
    }
  };

  /** If compactLock answers, its bytes mean what the text means, and each member is the text's member. */
  function faithful(text: string): ReturnType<typeof compactLock> {
    const compact = compactLock(Buffer.from(text));
    if (compact === undefined) return undefined;
    expect(parse(compact.bytes.toString("utf8")), text.slice(0, 80)).toEqual(parse(text));
    const whole = parse(text) as Json;
    if (typeof whole !== "object") return compact;
    const part = (from: number, to: number): unknown => JSON.parse(compact.bytes.toString("utf8", from, to));
    for (const member of compact.members) expect(part(member.colon + 1, member.end)).toEqual(whole[part(member.start, member.colon) as string]);
    for (const member of compact.tools ?? []) expect(part(member.colon + 1, member.end)).toEqual(whole.tools[part(member.start, member.colon) as string]);
    return compact;
  }

  it("turns a lock from cave build into its canonical bytes, and finds every tool's entry", () => {
    const compact = faithful(exampleText)!;
    const { integrity: _integrity, ...body } = example();
    const withoutIntegrity = compact.members.filter((m) => !compact.bytes.toString("utf8", m.start, m.colon).includes("integrity"));
    const text = `{${withoutIntegrity.map((m) => compact.bytes.toString("utf8", m.start, m.end)).join(",")}}`;
    expect(text).toBe(canonicalJson(body));
    expect(compact.tools!.map((m) => JSON.parse(compact.bytes.toString("utf8", m.start, m.colon)))).toEqual(Object.keys(example().tools));
  });

  // String.raw: the JSON text exactly as written, backslashes included.
  it.each([
    [String.raw`{"a": 1 2}`, "whitespace between two digits (1 2 must not become 12)"],
    [String.raw`{"a": tr ue}`, "whitespace inside a literal"],
    ['{"a": 1, "b": -\n 2}', "whitespace after a minus sign"],
    [String.raw`{"a": "x" "y"}`, "two strings side by side"],
    [String.raw`{"b\\": 1, "c\\\"": 2}`, "keys ending in an escaped backslash and an escaped quote"],
    [String.raw`{"a": "\\", "b": "\\\\"}`, "strings ending in escaped backslashes"],
    [String.raw`{"a": "he said \": \" ok", "b": "\\\": x"}`, "an escaped quote followed by a colon and a space, inside a string"],
    [String.raw`{"k": ": starts with colon", "l": [": x", "y, \"z\": 1"]}`, "strings that look like keys"],
    ['{"a":\r\n\t1}', "CR, LF and tab between tokens"],
    [String.raw`{"a": "é \u0041 \u2028", "é": 1}`, "non-ASCII characters and \\u escapes"],
    ['{"a": "line\nbreak"}', "a raw line break inside a string (not JSON)"],
    [String.raw`{"tools": {"a": {"x": [1, {"y": 2}]}, "b": {}}, "z": 1}`, "tools with nested arrays and objects"],
    [String.raw`{"tools": []}`, "tools that is an array"],
    [String.raw`{"tools": 1}`, "tools that is a number"],
    [String.raw`{"tools": {}, "tools": {"a": 1}}`, "a second tools key"],
    [String.raw`{"a": 1}}`, "a stray closing brace"],
    [String.raw`{"a": 1} x`, "bytes after the object"],
    [String.raw`{"a": "unterminated`, "an unterminated string"],
    [String.raw`{"a": 1`, "an unclosed object"],
    [String.raw`["a", 1]`, "an array at the top"],
    [String.raw`"text"`, "a bare string"],
    ["{}", "an empty object"],
    [String.raw`{"a": [1, 2], "b": {"c": null}}`, "containers below the top"],
  ])("never changes what %s means (%s)", (text) => {
    faithful(text);
  });

  it("gives JSON.stringify's bytes for any JSON value printed with any indentation (seeded random values)", () => {
    let seed = 42;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const strings = ["", "a", 'he said "hi"', "back\\slash\\", "colon: space", '": ', "{[,]}", "é ü \u2028", "tab\tnew\nline", "\\\"", "tools"];
    const value = (depth: number): unknown => {
      const kind = depth > 3 ? random() * 3 : random() * 6;
      if (kind < 1) return pick(strings);
      if (kind < 2) return pick([0, -1.5, 1e21, 12345, 0.000001, true, false, null]);
      if (kind < 3) return pick(strings) + String(Math.floor(random() * 100));
      if (kind < 4.5) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [pick(strings) + i, value(depth + 1)]));
    };
    for (let round = 0; round < 300; round++) {
      const lock = { a: value(1), tools: Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`t${i}`, value(2)])), z: value(1) };
      const indent = pick([0, 1, 2, 4, "\t"]);
      const text = JSON.stringify(lock, null, indent);
      const compact = faithful(pick([text, text.replaceAll("\n", "\r\n")]))!;
      expect(compact.bytes.toString("utf8")).toBe(JSON.stringify(lock));
      expect(compact.tools).toHaveLength(Object.keys(lock.tools).length);
    }
  });

  it("gives the same bytes for a lock of several slices, with strings, escapes and whitespace runs across slice ends", () => {
    // Slices are 256 KiB; vary the padding so strings, escapes and indentation cross every boundary.
    const tools: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) tools[`t${i}`] = { d: `${"x".repeat(i % 97)}\\"\\${"y".repeat(i % 13)}`, n: [i, -i / 7, true, null], o: { k: "é".repeat(i % 5) } };
    for (const indent of [2, 7]) {
      const lock = { a: 1, tools, z: "end" };
      const compact = compactLock(Buffer.from(JSON.stringify(lock, null, indent)))!;
      expect(compact.bytes.toString("utf8")).toBe(JSON.stringify(lock));
      expect(compact.tools).toHaveLength(3000);
    }
  });

  it("ships the WebAssembly that compact.wat assembles to", async () => {
    const { assembledModule } = (await import(join(REPO_ROOT, "scripts", "build-compact-wasm.mjs"))) as { assembledModule(): Promise<string> };
    expect(readFileSync(join(REPO_ROOT, "runtime", "lock", "compact-wasm.ts"), "utf8"), "run node scripts/build-compact-wasm.mjs").toBe(await assembledModule());
  });

  it("refuses what only whitespace separates, and unbalanced or trailing input", () => {
    for (const text of ['{"a": 1 2}', '{"a": tr ue}', '{"a": 1}}', '{"a": 1} x', '{"a": "x', '{"a": 1', '["a"]', '"x"']) {
      expect(compactLock(Buffer.from(text)), text).toBeUndefined();
    }
  });

  it("finds tools only when it is one object", () => {
    expect(compactLock(Buffer.from('{"tools": []}'))?.tools).toBeUndefined();
    expect(compactLock(Buffer.from('{"tools": 1}'))?.tools).toBeUndefined();
    expect(compactLock(Buffer.from('{"tools": {}, "tools": {}}'))).toBeUndefined();
    expect(compactLock(Buffer.from('{"tools": {}}'))?.tools).toEqual([]);
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
