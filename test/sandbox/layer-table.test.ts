// Which layer stops what, measured on the Node running the suite (CI runs it on 20, 22 and 24), and
// checked against the table for this Node in docs/sandbox.md: the docs' per-version tables are test
// output, never written by hand. CAVE_UPDATE_GOLDEN=1 rewrites this version's table (or
// `node scripts/sandbox-layer-tables.mjs <node>...` for several versions at once).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeFeatures } from "../../runtime/sandbox/node-features.js";
import { REPO_ROOT, UPDATE_GOLDEN } from "../support/golden.js";
import { blockPattern, COLUMNS, measureLayers, renderTable, tableRows, type Matrix } from "./support/layer-matrix.js";

const DOC = join(REPO_ROOT, "docs/sandbox.md");
const features = nodeFeatures();
let matrix: Matrix;
let namespace: boolean;

beforeAll(async () => {
  ({ matrix, namespace } = await measureLayers());
}, 180_000);

const column = (name: (typeof COLUMNS)[number]) =>
  Object.fromEntries(Object.entries(matrix).map(([attack, row]) => [attack, row[name]]));

describe(`sandbox layers on Node ${features.version}`, () => {
  it("every attack is real: with no layer it goes through", () => {
    expect(
      Object.values(column("no layer")).every((verdict) => verdict === "through"),
      JSON.stringify(column("no layer")),
    ).toBe(true);
  });

  it("no attempt failed for a reason other than a layer (a probe that fails otherwise proves nothing)", () => {
    const failed = Object.entries(matrix).flatMap(([attack, row]) =>
      COLUMNS.filter((name) => row[name].startsWith("failed")).map((name) => `${attack} / ${name}: ${row[name]}`),
    );
    expect(failed).toEqual([]);
  });

  it("as shipped, every attack is stopped", () => {
    expect(Object.entries(column("all (as shipped)")).filter(([, verdict]) => !verdict.startsWith("stopped"))).toEqual(
      [],
    );
  });

  it("the permission model stops the network exactly where runtime/sandbox/node-features.ts says it does", () => {
    const permission = column("permission model");
    expect(permission["net.connect"]!.startsWith("stopped")).toBe(features.permissionDeniesNetwork);
    expect(permission.fetch!.startsWith("stopped")).toBe(features.permissionDeniesNetwork);
    expect(permission["read /proc/self/environ"]).toBe("stopped: ERR_ACCESS_DENIED");
  });

  it("the network namespace column is measured in CI (root can always make one)", () => {
    if (process.env.CI === "true") expect(namespace).toBe(true);
    if (namespace) expect(column("network namespace")["net.connect"]).toBe("stopped: ENETUNREACH");
  });

  it(`docs/sandbox.md holds this table for Node ${features.major}`, () => {
    const doc = readFileSync(DOC, "utf8");
    const pattern = blockPattern(features.major);
    const rendered = renderTable(matrix);
    if (UPDATE_GOLDEN && namespace) {
      const block = `<!-- layer-table node=${features.major} -->\n${rendered}\n<!-- /layer-table -->`;
      const updated = pattern.test(doc)
        ? doc.replace(pattern, () => block)
        : doc.replace(
            "<!-- layer-tables -->",
            () => `#### Node ${features.major}\n\n${block}\n\n<!-- layer-tables -->`,
          );
      writeFileSync(DOC, updated);
      return;
    }
    const found = pattern.exec(doc);
    expect(
      found,
      `docs/sandbox.md has no measured table for Node ${features.major}: run CAVE_UPDATE_GOLDEN=1 npx vitest run test/sandbox/layer-table.test.ts on it (as root, where a network namespace can be made)`,
    ).not.toBeNull();
    const expected = tableRows(found![1]!);
    const actual = tableRows(rendered);
    // A column this host cannot measure (no network namespace) is compared nowhere; every other cell is.
    const measured = COLUMNS.map((name, index) =>
      namespace || (name !== "network namespace" && name !== "all (as shipped)") ? index : -1,
    ).filter((index) => index >= 0);
    const pick = (row: string) => {
      const cells = row
        .split("|")
        .slice(1, -1)
        .map((text) => text.trim());
      return [cells[0], ...measured.map((index) => cells[index + 1])].join(" | ");
    };
    expect(
      actual.map(pick),
      "docs/sandbox.md is stale for this Node: rerun with CAVE_UPDATE_GOLDEN=1 and review the diff",
    ).toEqual(expected.map(pick));
  });
});
