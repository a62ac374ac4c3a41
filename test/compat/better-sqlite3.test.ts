// Issue 11, item 3: better-sqlite3 12 (a native addon) as an external package: pinned in the lock from
// package-lock.json, imported from node_modules at run time, used by a sandboxed tool with sandboxProfile.addons
// (only under the OS layer) and by an in-process tool; an installed version that differs, and (after cave verify
// --write-manifest) an installed file that changed, are refused before the tool runs.
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/index.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { cave } from "../cli/helpers.js";
import { copyWorkspace, removeWorkspaceCopies, WORKSPACE } from "./workspace.js";

afterAll(removeWorkspaceCopies);

const ROWS = {
  rows: [
    { name: "b", qty: 2 },
    { name: "a", qty: 3 },
  ],
};
const TOTALS = { total: 5, names: ["a", "b"] };

/** The workspace copy with its own node_modules folder: a link per installed package, so one can be replaced. */
function ownModules(root: string): string {
  const modules = join(root, "node_modules");
  rmSync(modules);
  mkdirSync(modules);
  for (const name of readdirSync(join(WORKSPACE, "node_modules")))
    symlinkSync(join(WORKSPACE, "node_modules", name), join(modules, name));
  return modules;
}

describe("better-sqlite3 as an external package", () => {
  it("is pinned from package-lock.json and runs sandboxed (addons: true, OS layer) and in process", async () => {
    const root = copyWorkspace(["better-sqlite3.ts"]);
    const result = await build({ root });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const lock = result.lock!;
    const packageLock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")).packages;
    expect(lock.externals["node_modules/better-sqlite3"]).toEqual({
      name: "better-sqlite3",
      version: packageLock["node_modules/better-sqlite3"].version,
      integrity: packageLock["node_modules/better-sqlite3"].integrity,
      optional: false,
    });
    expect(lock.externals["node_modules/better-sqlite3"]!.version).toMatch(/^12\./);
    // What its code can load is pinned too (bindings finds the addon).
    expect(lock.externals["node_modules/bindings"]).toMatchObject({ name: "bindings" });
    expect(lock.tools.sqlite_totals!.source.externals).toEqual(Object.keys(lock.externals));
    expect(lock.tools.sqlite_totals!.sandbox).toEqual({
      addons: true,
      egress: [],
      env: [],
      fs: null,
      mode: "required",
      network: false,
      secrets: {},
    });
    expect(lock.osLayerTools).toEqual(["sqlite_totals"]);
    expect(lock.tools.sqlite_totals_host!.sandbox).toEqual({
      addons: false,
      egress: [],
      env: [],
      fs: null,
      mode: "none",
      network: false,
      secrets: {},
    });
    // Not bundled: the bundle imports the package by name.
    const bundle = readFileSync(join(root, lock.tools.sqlite_totals!.source.bundle), "utf8");
    expect(bundle).toMatch(/from "better-sqlite3"/);
    expect(bundle).not.toContain("function Database(");

    const runtime = await createRuntime({
      root,
      mode: "host",
      dispatchers: { required: createSandboxDispatcher({ isolation: "os" }) },
    });
    try {
      for (const name of ["sqlite_totals", "sqlite_totals_host"]) {
        expect(await runtime.call(name, ROWS), name).toMatchObject({
          ok: true,
          content: { ...TOTALS, sqlite: expect.stringMatching(/^3\./) },
        });
      }
    } finally {
      runtime.close();
    }
  });

  it("a sandboxed tool with addons is refused without the OS layer (OS_LAYER_REQUIRED at createRuntime); one without addons cannot load it", async () => {
    const root = copyWorkspace(["better-sqlite3.ts"]);
    const source = readFileSync(join(root, "tools/better-sqlite3.ts"), "utf8");
    writeFileSync(
      join(root, "tools/no-addons.ts"),
      source
        .replace("sandboxProfile: { addons: true }, ", "")
        .replaceAll("sqlite_totals", "sqlite_plain")
        .replaceAll("sqliteTotals", "sqlitePlain")
        .replace(/export const sqlitePlainHost[^\n]*\n/, ""),
    );
    const result = await build({ root });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.lock!.tools.sqlite_plain!.sandbox.addons).toBe(false);

    await expect(
      createRuntime({ root, mode: "host", dispatchers: { required: createSandboxDispatcher({ isolation: "node" }) } }),
    ).rejects.toMatchObject({
      code: "OS_LAYER_REQUIRED",
      message: expect.stringContaining(
        'tool "sqlite_totals" is locked with powers only the sandbox\'s OS layer can enforce (native addons), and the OS layer is not in use here (isolation is "node"',
      ),
    });
    const os = await createRuntime({
      root,
      mode: "host",
      dispatchers: { required: createSandboxDispatcher({ isolation: "os" }) },
    });
    try {
      const plain = await os.call("sqlite_plain", ROWS);
      expect(plain).toMatchObject({ ok: false, error: { code: "SANDBOX_DENIED" } });
      expect(plain.ok ? "" : plain.error.message).toContain(
        "process.dlopen is denied in the cave sandbox. It loads a native addon; give it sandboxProfile: { addons: true }",
      );
    } finally {
      os.close();
    }
  });

  it("refuses an installed version that differs from the lock, at first use and in cave verify", async () => {
    const root = copyWorkspace(["better-sqlite3.ts"]);
    const modules = ownModules(root);
    expect((await build({ root })).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // Another version installed in its place (only its package.json: the check comes before anything loads).
    rmSync(join(modules, "better-sqlite3"));
    mkdirSync(join(modules, "better-sqlite3"));
    writeFileSync(
      join(modules, "better-sqlite3/package.json"),
      JSON.stringify({ name: "better-sqlite3", version: "12.0.0", main: "index.js" }),
    );
    writeFileSync(
      join(modules, "better-sqlite3/index.js"),
      "module.exports = function Database() { throw new Error('the wrong version ran'); };\n",
    );
    const runtime = await createRuntime({ root, mode: "host" });
    try {
      for (const name of ["sqlite_totals", "sqlite_totals_host"]) {
        const outcome = await runtime.call(name, ROWS);
        expect(outcome, name).toMatchObject({ ok: false, error: { code: "LOCK_MISMATCH" } });
        expect(outcome.ok ? "" : outcome.error.message).toMatch(
          new RegExp(
            `^tool "${name}" needs the external package better-sqlite3 12\\.\\S+, but node_modules/better-sqlite3 holds version 12\\.0\\.0; install what package-lock\\.json pins \\(npm ci\\)`,
          ),
        );
      }
    } finally {
      runtime.close();
    }
    const verify = await cave(["verify", "--root", root], root);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain("CAVE9120: the lock needs the external package better-sqlite3");
  });

  it("after cave verify --write-manifest, a changed file of the package is refused before the tool runs", async () => {
    const root = copyWorkspace(["better-sqlite3.ts"]);
    const modules = ownModules(root);
    // A private install of better-sqlite3 this test may change.
    rmSync(join(modules, "better-sqlite3"));
    cpSync(join(WORKSPACE, "node_modules/better-sqlite3"), join(modules, "better-sqlite3"), { recursive: true });
    expect((await build({ root })).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const written = await cave(["verify", "--root", root, "--write-manifest"], root);
    expect(written.stderr).toBe("");
    expect(written.code).toBe(0);
    expect(written.stdout).toContain("wrote cave.manifest.json");
    const manifest = JSON.parse(readFileSync(join(root, "cave.manifest.json"), "utf8"));
    expect(manifest.lockIntegrity).toBe(JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")).integrity);
    expect(manifest.packages["node_modules/better-sqlite3"].files["lib/index.js"]).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(manifest.packages["node_modules/better-sqlite3"].files["build/Release/better_sqlite3.node"]).toMatch(
      /^sha256-/,
    );

    const runtime = await createRuntime({ root, mode: "host" });
    try {
      expect(await runtime.call("sqlite_totals_host", ROWS)).toMatchObject({ ok: true, content: TOTALS });
    } finally {
      runtime.close();
    }
    appendFileSync(join(modules, "better-sqlite3/lib/index.js"), "\nglobalThis.changed = true;\n");
    const again = await createRuntime({ root, mode: "host" });
    try {
      for (const name of ["sqlite_totals", "sqlite_totals_host"]) {
        const outcome = await again.call(name, ROWS);
        expect(outcome, name).toMatchObject({
          ok: false,
          error: {
            code: "LOCK_MISMATCH",
            message: expect.stringContaining(
              `tool "${name}": the external package better-sqlite3 changed since cave.manifest.json was written (node_modules/better-sqlite3/lib/index.js changed)`,
            ),
          },
        });
      }
    } finally {
      again.close();
    }
    expect((globalThis as { changed?: boolean }).changed).toBeUndefined();
    const verify = await cave(["verify", "--root", root], root);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain("lib/index.js changed");
  });
});
