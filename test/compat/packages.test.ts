// Issue 11: real registry packages (test/compat/workspace, installed with npm ci) build and run in both sandbox modes:
// each tool module holds the same tool twice, sandboxed (`name`) and in process (`name_host`), and both answer alike.
// got and axios, which make real requests (the sandboxed ones through the egress broker), are http-clients.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime, type Runtime } from "../../runtime/index.js";
import { copyWorkspace, expectSourceMaps, removeWorkspaceCopies } from "./workspace.js";

afterAll(removeWorkspaceCopies);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Each package's tool: its arguments and what both modes must answer. */
const CASES: ReadonlyArray<{
  readonly file: string;
  readonly name: string;
  readonly args: unknown;
  readonly content: unknown;
}> = [
  {
    file: "lodash.ts",
    name: "lodash",
    args: { words: ["ship it", "Ship-it", "hello"] },
    content: { counts: { "5": 1, "7": 2 }, camel: ["shipIt", "hello"] },
  },
  {
    file: "date-fns.ts",
    name: "date_fns",
    args: { from: "2026-12-04", businessDays: 3 },
    content: { due: "2026-12-09", calendarDays: 5 },
  },
  {
    file: "yaml.ts",
    name: "yaml",
    args: { text: "order: 7\nitems:\n  - a\n  - b\n" },
    content: { value: { order: 7, items: ["a", "b"] }, again: "order: 7\nitems:\n  - a\n  - b\n" },
  },
  {
    file: "marked.ts",
    name: "marked",
    args: { markdown: "# Title\n\nSome *text*." },
    content: { html: "<h1>Title</h1>\n<p>Some <em>text</em>.</p>\n" },
  },
  {
    file: "cheerio.ts",
    name: "cheerio",
    args: { html: "<html><head><title>Orders</title></head><body><a href='/a'>A</a><a href='/b'>B</a></body></html>" },
    content: { title: "Orders", links: ["/a", "/b"] },
  },
  {
    file: "uuid.ts",
    name: "uuid",
    args: { name: "cave.example" },
    content: { random: expect.stringMatching(UUID), randomVersion: 4, named: "0f680e10-f03c-541d-a322-b1f23546f196" },
  },
  {
    file: "semver.ts",
    name: "semver",
    args: { versions: ["1.2.3", "1.10.0", "2.0.0-rc.1", "1.9.9"], range: "^1.2.0" },
    content: { best: "1.10.0", sorted: ["1.2.3", "1.9.9", "1.10.0", "2.0.0-rc.1"] },
  },
  {
    file: "zod.ts",
    name: "zod",
    args: { email: "ada@example.com", tags: ["VIP", "Beta"] },
    content: { domain: "example.com", tags: ["vip", "beta"] },
  },
  { file: "valibot.ts", name: "valibot", args: { sku: "CBL-200", quantity: 2 }, content: { line: "2 x CBL-200" } },
  { file: "arktype.ts", name: "arktype", args: { city: "Lyon" }, content: { city: "Lyon", days: 3 } },
];

let root: string;
let runtime: Runtime;

// One build of every package's tool module (the packages are large: minutes on a loaded machine), then a test per package.
beforeAll(async () => {
  root = copyWorkspace(CASES.map((one) => one.file));
  const result = await build({ root });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(Object.keys(result.lock!.tools).sort()).toEqual(CASES.flatMap((one) => [one.name, `${one.name}_host`]).sort());
  runtime = await createRuntime({ root, mode: "host" });
}, 600_000);
afterAll(() => runtime?.close());

describe("registry packages build and run in both sandbox modes", () => {
  it.each(CASES)(
    "$name answers the same sandboxed and in process",
    async (one) => {
      for (const name of [one.name, `${one.name}_host`]) {
        const outcome = await runtime.call(name, one.args);
        expect(outcome, `${name}: ${outcome.ok ? "" : JSON.stringify(outcome.error)}`).toMatchObject({
          ok: true,
          content: one.content,
        });
        expect(
          name.endsWith("_host")
            ? outcome.receipt.isolation === "none"
            : ["os", "node"].includes(outcome.receipt.isolation ?? ""),
          name,
        ).toBe(true);
      }
    },
    120_000,
  );

  it("every bundle ends with its source map, its sources named without a path of this machine (cheerio's dependencies ship maps of their own)", () => {
    expectSourceMaps(root);
  });

  it.each(["zod", "valibot", "arktype"])(
    "%s's validator refuses bad arguments where the tool runs, in both modes",
    async (name) => {
      const bad =
        name === "zod"
          ? { email: "not an email", tags: [] }
          : name === "valibot"
            ? { sku: "nope", quantity: 0 }
            : { city: "" };
      for (const which of [name, `${name}_host`])
        expect(await runtime.call(which, bad), which).toMatchObject({ ok: false, error: { code: "INPUT_INVALID" } });
    },
    120_000,
  );
});
