import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pinExternals } from "../../compiler/stage/externals.js";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import { checkExternals, manifestFor } from "../../runtime/loading/externals.js";
import { RuntimeError } from "../../runtime/errors.js";

// sharp's shape (issue 11): package-lock.json lists a platform package for every OS and CPU (optional, with os/cpu),
// npm installs the one that matches. The lock pins all of them; the runtime accepts whichever is installed at its pin.
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const SHARP = {
  "node_modules/sharp": {
    version: "0.35.5",
    integrity: "sha512-sharp",
    dependencies: { "@img/colour": "^1.0.0" },
    optionalDependencies: { "@img/sharp-linux-x64": "0.35.5", "@img/sharp-darwin-arm64": "0.35.5" },
  },
  "node_modules/@img/colour": { version: "1.1.0", integrity: "sha512-colour" },
  "node_modules/@img/sharp-linux-x64": {
    version: "0.35.5",
    integrity: "sha512-linux",
    optional: true,
    os: ["linux"],
    cpu: ["x64"],
    optionalDependencies: { "@img/sharp-libvips-linux-x64": "1.3.4" },
  },
  "node_modules/@img/sharp-libvips-linux-x64": {
    version: "1.3.4",
    integrity: "sha512-libvips-linux",
    optional: true,
    os: ["linux"],
    cpu: ["x64"],
  },
  "node_modules/@img/sharp-darwin-arm64": {
    version: "0.35.5",
    integrity: "sha512-darwin",
    optional: true,
    os: ["darwin"],
    cpu: ["arm64"],
  },
};

/** A project whose package-lock.json lists sharp's packages and whose node_modules holds `installed` (path -> version). */
function project(installed: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cave-platform-"));
  temps.push(root);
  writeFileSync(
    join(root, "package-lock.json"),
    JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: { sharp: "^0.35.5" } }, ...SHARP } }),
  );
  for (const [path, version] of Object.entries(installed)) {
    mkdirSync(join(root, path), { recursive: true });
    writeFileSync(
      join(root, path, "package.json"),
      JSON.stringify({ name: path.slice("node_modules/".length), version }),
    );
  }
  return root;
}

const HERE = {
  "node_modules/sharp": "0.35.5",
  "node_modules/@img/colour": "1.1.0",
  "node_modules/@img/sharp-linux-x64": "0.35.5",
  "node_modules/@img/sharp-libvips-linux-x64": "1.3.4",
};

describe("an external package with platform packages (sharp)", () => {
  it("pins every platform package package-lock.json lists, marked optional, and the package and its dependencies not", () => {
    const diagnostics: Diagnostic[] = [];
    const { pins, closure } = pinExternals(project(HERE), ["sharp"], diagnostics);
    expect(diagnostics).toEqual([]);
    expect(pins).toEqual({
      "node_modules/@img/colour": {
        name: "@img/colour",
        version: "1.1.0",
        integrity: "sha512-colour",
        optional: false,
      },
      "node_modules/@img/sharp-darwin-arm64": {
        name: "@img/sharp-darwin-arm64",
        version: "0.35.5",
        integrity: "sha512-darwin",
        optional: true,
      },
      "node_modules/@img/sharp-libvips-linux-x64": {
        name: "@img/sharp-libvips-linux-x64",
        version: "1.3.4",
        integrity: "sha512-libvips-linux",
        optional: true,
      },
      "node_modules/@img/sharp-linux-x64": {
        name: "@img/sharp-linux-x64",
        version: "0.35.5",
        integrity: "sha512-linux",
        optional: true,
      },
      "node_modules/sharp": { name: "sharp", version: "0.35.5", integrity: "sha512-sharp", optional: false },
    });
    expect(closure.get("sharp")).toEqual(Object.keys(pins).sort());
  });

  it("the runtime accepts the platform packages installed at their pins and the others absent, and links only those installed", () => {
    const root = project(HERE);
    const { pins } = pinExternals(root, ["sharp"], []);
    const installed = checkExternals(root, Object.keys(pins).sort(), pins, null, 'tool "thumbnail"');
    expect(installed.map((one) => one.path)).toEqual([
      "node_modules/@img/colour",
      "node_modules/@img/sharp-libvips-linux-x64",
      "node_modules/@img/sharp-linux-x64",
      "node_modules/sharp",
    ]);
    // The deploy's manifest records what is installed here, and nothing of the other platforms.
    expect(Object.keys(manifestFor(root, "sha256-lock", pins).packages)).toEqual(installed.map((one) => one.path));
  });

  it("refuses a platform package installed at another version than its pin, and a missing required package", () => {
    const root = project({ ...HERE, "node_modules/@img/sharp-linux-x64": "0.34.0" });
    const { pins } = pinExternals(root, ["sharp"], []);
    const refused = (at: string) => {
      try {
        checkExternals(at, Object.keys(pins).sort(), pins, null, 'tool "thumbnail"');
      } catch (thrown) {
        expect(thrown).toBeInstanceOf(RuntimeError);
        return thrown as RuntimeError;
      }
      throw new Error("not refused");
    };
    expect(refused(root)).toMatchObject({
      code: "LOCK_MISMATCH",
      message:
        'tool "thumbnail" needs the external package @img/sharp-linux-x64 0.35.5, but node_modules/@img/sharp-linux-x64 holds version 0.34.0; install what package-lock.json pins (npm ci), or rebuild with cave build after changing it',
    });
    const { "node_modules/@img/colour": _colour, ...withoutColour } = HERE;
    expect(refused(project(withoutColour))).toMatchObject({
      code: "LOCK_MISMATCH",
      message: expect.stringContaining("@img/colour 1.1.0 at node_modules/@img/colour, which is not installed"),
    });
  });

  it("refuses a platform package the deploy's manifest recorded and that is gone since", () => {
    const root = project(HERE);
    const { pins } = pinExternals(root, ["sharp"], []);
    const manifest = manifestFor(root, "sha256-lock", pins);
    rmSync(join(root, "node_modules/@img/sharp-linux-x64"), { recursive: true });
    expect(() => checkExternals(root, Object.keys(pins).sort(), pins, manifest, 'tool "thumbnail"')).toThrow(
      /@img\/sharp-linux-x64 0\.35\.5 at node_modules\/@img\/sharp-linux-x64, which is not installed/,
    );
  });
});
