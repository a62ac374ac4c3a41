import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { checkLockShape } from "../runtime/lock/check-shape.js";
import { lockIntegrity, toolEntryHash } from "../src/contract/lock-seal.js";
import { LOCKFILE_VERSION, type LockedTool, type LockHeader } from "../src/contract/lock.js";
import { REPO_ROOT } from "./support/golden.js";

const schema = JSON.parse(readFileSync(join(REPO_ROOT, "docs", "cave.lock.schema.json"), "utf8"));
const validate = new Ajv({ strict: true, allErrors: true }).compile(schema);

const locks = [
  join(REPO_ROOT, "cave.lock.example"),
  ...readdirSync(join(REPO_ROOT, "fixtures")).map((name) => join(REPO_ROOT, "fixtures", name, "expected.lock")),
].filter((file) => existsSync(file));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("every produced lock", () => {
  it("there are locks to check", () => expect(locks.length).toBeGreaterThan(1));

  it.each(locks.map((file) => [file.slice(REPO_ROOT.length + 1), file]))(
    "%s validates against docs/cave.lock.schema.json, its integrity and its tool hashes",
    (_, file) => {
      const lock = JSON.parse(readFileSync(file, "utf8"));
      const valid = validate(lock);
      expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
      expect(valid).toBe(true);
      expect(lock.lockfileVersion).toBe(LOCKFILE_VERSION);
      expect(lock.integrity).toBe(lockIntegrity(lock));
      expect(Object.keys(lock.toolHashes)).toEqual(Object.keys(lock.tools));
      for (const name of Object.keys(lock.tools))
        expect(lock.toolHashes[name], name).toBe(toolEntryHash(lock.tools[name]));
      // The runtime's copy of the schema (check-shape.ts) passes it too.
      expect(checkLockShape(lock)).toBeUndefined();
    },
  );

  it("the schema rejects a lock with an unknown key or a bad hash", () => {
    const lock = JSON.parse(readFileSync(locks[0]!, "utf8"));
    expect(validate({ ...lock, extra: 1 })).toBe(false);
    expect(validate({ ...lock, integrity: "sha256-XYZ" })).toBe(false);
  });
});

/**
 * The lock's shape is stated once, as a schema (docs/cave.lock.schema.json); the runtime checks it with validators
 * compiled ahead from it plus what a schema cannot state (runtime/lock/check-shape.ts): both must refuse the same
 * malformed locks and pass the same good ones.
 */
describe("docs/cave.lock.schema.json and runtime/lock/check-shape.ts agree", () => {
  const example = (): Json => JSON.parse(readFileSync(join(REPO_ROOT, "cave.lock.example"), "utf8")) as Json;
  const first = Object.keys(example().tools)[0]!;
  const mutations: Array<[string, (lock: Json) => void]> = [
    ["an unknown top-level key", (l) => (l.extra = 1)],
    ["no toolHashes", (l) => delete l.toolHashes],
    ["no osLayerTools", (l) => delete l.osLayerTools],
    ["no externals", (l) => delete l.externals],
    ["a bad tool hash", (l) => (l.toolHashes[first] = "sha256-abc")],
    ["a tool without sandbox.egress", (l) => delete l.tools[first].sandbox.egress],
    ["a tool without sandbox.secrets", (l) => delete l.tools[first].sandbox.secrets],
    ["a tool without sandbox.fs", (l) => delete l.tools[first].sandbox.fs],
    ["sandbox.addons not a boolean", (l) => (l.tools[first].sandbox.addons = "yes")],
    ["a tool without source.assets", (l) => delete l.tools[first].source.assets],
    ["a tool without source.externals", (l) => delete l.tools[first].source.externals],
    [
      "an external pin without optional",
      (l) => (l.externals = { "node_modules/x": { name: "x", version: "1.0.0", integrity: "sha512-x" } }),
    ],
    [
      "an external pin keyed by a bad path",
      (l) => (l.externals = { "lib/x": { name: "x", version: "1.0.0", integrity: "sha512-x", optional: false } }),
    ],
    ["an sdk without module", (l) => delete l.sdk.module],
    ["an unknown effect", (l) => (l.tools[first].effect = "delete")],
    ["an unknown sandbox key", (l) => (l.tools[first].sandbox.extra = 1)],
    ["lockfileVersion 1", (l) => (l.lockfileVersion = 1)],
  ];
  const accepted: Array<[string, (lock: Json) => void]> = [
    ["as built", () => undefined],
    [
      "a platform package pin",
      (l) =>
        (l.externals = {
          "node_modules/@img/sharp-linux-x64": {
            name: "@img/sharp-linux-x64",
            version: "0.35.5",
            integrity: "sha512-x",
            optional: true,
          },
        }),
    ],
    ["fs scopes", (l) => (l.tools[first].sandbox.fs = { read: ["data"], write: [] })],
  ];

  it.each(mutations)("both refuse %s", (_, mutate) => {
    const lock = example();
    mutate(lock);
    expect(validate(lock)).toBe(false);
    // lockfileVersion is the runtime's first check (read-lock.ts), not the shape's.
    if (lock.lockfileVersion === LOCKFILE_VERSION) expect(checkLockShape(lock)).toBeDefined();
  });

  it.each(accepted)("both accept %s", (_, mutate) => {
    const lock = example();
    mutate(lock);
    expect(validate(lock), JSON.stringify(validate.errors)).toBe(true);
    expect(checkLockShape(lock)).toBeUndefined();
  });
});

/**
 * The types (src/contract/lock.ts) and the schema name the same fields of the header and of a tool entry: the lists
 * below are checked against the types by the type checker (each names every key, and only keys) and against the
 * schema's required fields here, so a field added to one and not the other fails one or the other.
 */
describe("src/contract/lock.ts and docs/cave.lock.schema.json name the same fields", () => {
  const HEADER_FIELDS = [
    "lockfileVersion",
    "integrity",
    "buildDir",
    "sdk",
    "agents",
    "externals",
    "osLayerTools",
    "toolHashes",
  ] as const satisfies ReadonlyArray<keyof LockHeader>;
  const TOOL_FIELDS = [
    "module",
    "export",
    "description",
    "effect",
    "speculable",
    "retryable",
    "timeoutMs",
    "allowRepeat",
    "sandbox",
    "nestedTools",
    "source",
    "input",
    "output",
    "result",
  ] as const satisfies ReadonlyArray<keyof LockedTool>;
  const everyHeaderField: [Exclude<keyof LockHeader, (typeof HEADER_FIELDS)[number]>] extends [never] ? true : false =
    true;
  const everyToolField: [Exclude<keyof LockedTool, (typeof TOOL_FIELDS)[number]>] extends [never] ? true : false = true;

  it("the header", () => {
    expect(everyHeaderField).toBe(true);
    expect([...schema.required].filter((key: string) => key !== "tools").sort()).toEqual([...HEADER_FIELDS].sort());
    expect(
      Object.keys(schema.properties)
        .filter((key) => key !== "tools")
        .sort(),
    ).toEqual([...HEADER_FIELDS].sort());
  });

  it("a tool entry", () => {
    expect(everyToolField).toBe(true);
    expect([...schema.definitions.tool.required].sort()).toEqual([...TOOL_FIELDS].sort());
    expect(Object.keys(schema.definitions.tool.properties).sort()).toEqual([...TOOL_FIELDS].sort());
  });
});
