import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { splitLock as splitLockFile } from "../../runtime/lock/split-lock.js";
import { checkLockShape } from "../../runtime/lock/check-shape.js";
import { REPO_ROOT } from "../support/golden.js";

// The start-up checks read the header alone of a lock in cave build's layout; these tests pin that it
// never changes what a lock means, and answers only for what it fully understands.

const exampleText = readFileSync(join(REPO_ROOT, "cave.lock.example"), "utf8");
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const example = (): Json => JSON.parse(exampleText) as Json;

const scratch = mkdtempSync(join(tmpdir(), "cave-split-lock-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let written = 0;
/** splitLock of a lock file holding these bytes. */
function splitLock(bytes: Buffer): ReturnType<typeof splitLockFile> {
  const path = join(scratch, `${written++}.lock`);
  writeFileSync(path, bytes);
  return splitLockFile(path);
}

describe("splitLock", () => {
  /** If splitLock answers, its header and every entry it finds are the text's own. */
  function faithful(text: string): ReturnType<typeof splitLock> {
    const split = splitLock(Buffer.from(text));
    if (split === undefined) return undefined;
    const { tools, ...header } = JSON.parse(text) as Json;
    expect(split.header).toEqual(header);
    for (const name of Object.keys(tools)) expect(split.entry(name), name).toEqual({ value: tools[name] });
    return split;
  }

  it("reads the header of a lock from cave build alone, and finds every tool's entry", () => {
    const split = faithful(exampleText)!;
    expect(split).toBeDefined();
    expect(split.entry("no_such_tool")).toBeUndefined();
  });

  it("reads toolHashes of a lock from cave build as lines, the rest of the header parsed, and means what JSON.parse does", () => {
    const split = faithful(exampleText)!;
    const { tools: _tools, toolHashes, ...rest } = example();
    expect(split.byLines).toBeDefined();
    expect(split.byLines!.rest).toEqual(rest);
    expect(split.byLines!.lines.names).toEqual(Object.keys(toolHashes));
    expect(split.byLines!.lines.names.map((_, i) => split.byLines!.lines.hash(i))).toEqual(Object.values(toolHashes));
    // The compact JSON the seal is computed over.
    expect(split.byLines!.lines.compact).toBe(JSON.stringify(toolHashes));
  });

  it("leaves toolHashes lines it does not fully understand to the parse of the whole header", () => {
    const [first, second] = Object.keys(example().toolHashes as Json);
    const line = (name: string) => exampleText.split("\n").find((l) => l.startsWith(`    "${name}": `))!;
    for (const edit of [
      (text: string) => text.replace(line(first!), line(first!).replace("sha256-", "sha256-0")),
      (text: string) => text.replace(line(first!), line(first!).replace(": ", ":")),
      (text: string) => text.replace(line(first!), `    "${second}": ${line(first!).split(": ")[1]}`),
      (text: string) => text.replace(line(first!), line(first!).replace(`"${first}"`, '"bad name"')),
      (text: string) => text.replace(line(first!), line(first!).replace(`"${first}"`, `"${first}\\u0041"`)),
      (text: string) => text.replace('"\n  },\n  "tools": {', '",\n\n  },\n  "tools": {'),
    ]) {
      const text = edit(exampleText);
      expect(text).not.toBe(exampleText);
      const split = faithful(text);
      expect(split?.byLines).toBeUndefined();
    }
  });

  it("answers only for the layout cave build writes, and then faithfully (seeded random values, names and indents)", () => {
    let seed = 42;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const strings = [
      "",
      "a",
      'he said "hi"',
      "back\\slash\\",
      "colon: space",
      '": ',
      "{[,]}",
      "é ü \u2028",
      "tab\tnew\nline",
      '\\"',
      "tools",
      '\n    "x": ',
    ];
    const value = (depth: number): unknown => {
      const kind = depth > 3 ? random() * 3 : random() * 6;
      if (kind < 1) return pick(strings);
      if (kind < 2) return pick([0, -1.5, 1e21, 12345, 0.000001, true, false, null]);
      if (kind < 3) return pick(strings) + String(Math.floor(random() * 100));
      if (kind < 4.5) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, i) => [pick(strings) + i, value(depth + 1)]),
      );
    };
    let answered = 0;
    for (let round = 0; round < 300; round++) {
      const tools = Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, i) => [pick(["t", "a b", 'q"', "é"]) + i, value(2)]),
      );
      const lock = { a: value(1), b: value(1), tools };
      const text = `${JSON.stringify(lock, null, pick([0, 1, 2, 2, 2, 4, "\t"]))}\n`;
      if (faithful(pick([text, text, text.replaceAll("\n", "\r\n")])) !== undefined) answered++;
    }
    expect(answered).toBeGreaterThan(50);
  });

  it("finds every entry of a many-tool lock, by bisection and then from one read, in name order or not", () => {
    const example = JSON.parse(exampleText) as Json;
    const entries = Object.values(example.tools);
    for (const order of ["sorted", "reversed"]) {
      const names = Array.from({ length: 60 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
      if (order === "reversed") names.reverse();
      const tools = Object.fromEntries(
        names.map((name, i) => [
          name,
          { ...(entries[i % entries.length] as Json), description: `${name} ${"x".repeat(i * 97)}` },
        ]),
      );
      const text = `${JSON.stringify({ ...example, tools }, null, 2)}\n`;
      const split = splitLock(Buffer.from(text))!;
      // More reads than bisections: the later ones come from the index.
      for (const name of [...names].sort().reverse())
        expect(split.entry(name), `${order} ${name}`).toEqual({ value: tools[name] });
      expect(split.entry("tool_999")).toBeUndefined();
    }
  });

  it("finds an entry from its place among the names, and by bisection when the place is wrong", () => {
    const example = JSON.parse(exampleText) as Json;
    const entries = Object.values(example.tools);
    const names = Array.from({ length: 40 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    // Entries of very different sizes, so an even spread misplaces many of them.
    const tools = Object.fromEntries(
      names.map((name, i) => [
        name,
        { ...(entries[i % entries.length] as Json), description: `${name} ${"x".repeat((i % 7) * 900)}` },
      ]),
    );
    const text = `${JSON.stringify({ ...example, tools }, null, 2)}\n`;
    names.forEach((name, i) => {
      for (const index of [i, 0, names.length - 1, (i * 7) % names.length]) {
        // A fresh split each time: past a few reads, a split reads the tools part once and stops guessing.
        const split = splitLock(Buffer.from(text))!;
        expect(split.entry(name, { index, of: names.length }), `${name} at ${index}`).toEqual({ value: tools[name] });
      }
    });
    const split = splitLock(Buffer.from(text))!;
    expect(split.entry("tool_0205", { index: 20, of: names.length })).toBeUndefined();
  });

  it("gives up on what is not a whole lock in that layout: the runtime then parses it whole", () => {
    const cut = exampleText.slice(0, Math.floor(exampleText.length / 2));
    for (const text of [
      cut,
      exampleText.slice(0, -3),
      "{}\n",
      '{\n  "tools": {}\n}\n',
      '{\n  "a": 1,\n  "tools": [\n  ]\n}\n',
      '{\n  "a": 1 2,\n  "tools": {}\n}\n',
    ]) {
      expect(splitLock(Buffer.from(text)), text.slice(0, 40)).toBeUndefined();
    }
    expect(splitLock(Buffer.from('{\n  "a": 1,\n  "tools": {}\n}\n'))?.entry("a")).toBeUndefined();
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
    [
      "an unknown effect",
      (l) => (l.tools[first].effect = "delete"),
      `tools.${first}.effect must be one of read, write, idempotent, external`,
    ],
    [
      "missing keys, reported in the schema's order",
      (l) => {
        delete l.tools[first].timeoutMs;
        delete l.tools[first].module;
      },
      `tools.${first}.module must be present`,
    ],
    [
      "missing top-level keys, in the schema's order",
      (l) => {
        delete l.agents;
        delete l.buildDir;
      },
      "buildDir must be present",
    ],
    ["an unknown key", (l) => (l.tools[first].zzz = 1), `tools.${first}.zzz must be absent (unknown key)`],
    [
      "an unknown plan key",
      (l) => (l.tools[first].result.plan.extra = 1),
      `tools.${first}.result.plan.extra must be absent (unknown key)`,
    ],
    [
      "a path leaving the project",
      (l) => (l.tools[first].source.bundle = "../outside.mjs"),
      `tools.${first}.source.bundle must be a POSIX path relative to the project root, inside it`,
    ],
    [
      "an absolute path",
      (l) => (l.tools[first].module = "/abs/tool.ts"),
      `tools.${first}.module must be a POSIX path relative to the project root, inside it`,
    ],
    [
      "a drive letter",
      (l) => (l.buildDir = "C:/build"),
      "buildDir must be a POSIX path relative to the project root, inside it",
    ],
    [
      "a backslash",
      (l) => (l.tools[first].source.bundle = ".cave\\bundle.mjs"),
      `tools.${first}.source.bundle must be a POSIX path relative to the project root, inside it`,
    ],
    [
      "an empty segment",
      (l) => (l.tools[first].source.bundle = ".cave//bundle.mjs"),
      `tools.${first}.source.bundle must be a POSIX path relative to the project root, inside it`,
    ],
    [
      "a trailing slash",
      (l) => (l.tools[first].module = "tools/"),
      `tools.${first}.module must be a POSIX path relative to the project root, inside it`,
    ],
    [
      "a dot segment",
      (l) => (l.tools[first].module = "tools/./a.ts"),
      `tools.${first}.module must be a POSIX path relative to the project root, inside it`,
    ],
    [
      "an upper-case hash",
      (l) => (l.tools[first].source.sha256 = `sha256-${"A".repeat(64)}`),
      `tools.${first}.source.sha256 must be a sha256-<64 hex> hash`,
    ],
    [
      "a short validator hash",
      (l) => (l.tools[first].input.validation.sha256 = "sha256-abc"),
      `tools.${first}.input.validation.sha256 must be a sha256-<64 hex> hash`,
    ],
    [
      "a repeated environment name",
      (l) => (l.tools[first].sandbox.env = ["API_KEY", "API_KEY"]),
      `tools.${first}.sandbox.env must be an array of distinct environment names`,
    ],
    [
      "a bad environment name",
      (l) => (l.tools[first].sandbox.env = ["1KEY"]),
      `tools.${first}.sandbox.env must be an array of distinct environment names`,
    ],
    [
      "unsorted nested tools",
      (l) => (l.tools[first].nestedTools = [second, first].sort().reverse()),
      `tools.${first}.nestedTools must be a sorted array of distinct tool names`,
    ],
    [
      "an unknown validation kind",
      (l) => (l.tools[first].input.validation.kind = "runtime"),
      `tools.${first}.input.validation.kind must be "precompiled" or "opaque"`,
    ],
    [
      "a dangling nested tool",
      (l) => (l.tools[first].nestedTools = ["ghost"]),
      `tools.${first}.nestedTools must be names of locked tools ("ghost" is not in the lock)`,
    ],
    [
      "a dangling agent tool",
      (l) => (l.agents[agent].tools = ["ghost"]),
      `agents.${agent}.tools must be names of locked tools ("ghost" is not in the lock)`,
    ],
    ["a tool that is not an object", (l) => (l.tools[first] = []), `tools.${first} must be an object`],
    [
      "a tool hash that is not a hash",
      (l) => (l.toolHashes[first] = "sha256-abc"),
      `toolHashes.${first} must be a sha256-<64 hex> hash`,
    ],
    [
      "an osLayerTools name that is not locked",
      (l) => (l.osLayerTools = ["ghost"]),
      `osLayerTools must be names of locked tools ("ghost" is not in the lock)`,
    ],
    [
      "a missing v2 field (sandbox.addons)",
      (l) => delete l.tools[first].sandbox.addons,
      `tools.${first}.sandbox.addons must be present`,
    ],
    [
      "a missing v2 field (source.assets)",
      (l) => delete l.tools[first].source.assets,
      `tools.${first}.source.assets must be present`,
    ],
    ["a missing v2 field (externals)", (l) => delete l.externals, "externals must be present"],
    [
      "an fs scope for sandbox none",
      (l) => {
        l.tools[first].sandbox.mode = "none";
        l.tools[first].sandbox.fs = { read: ["data"], write: [] };
      },
      `tools.${first}.sandbox.fs must be null with sandbox "none" (scopes are enforced by the sandbox)`,
    ],
    [
      "an external pin without optional",
      (l) => (l.externals = { "node_modules/x": { name: "x", version: "1.0.0", integrity: "sha512-x" } }),
      "externals.node_modules/x.optional must be present",
    ],
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
