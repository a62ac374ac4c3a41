// Issue 11, item 3: sharp (a native N-API addon whose binary comes in a platform package) as an external package:
// package-lock.json lists every platform's package, npm installs this machine's; the lock pins them all as optional,
// and the tool runs sandboxed (addons: true, OS layer) and in process on what is installed here.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { createRuntime } from "../../runtime/index.js";
import { createSandboxDispatcher } from "../../runtime/sandbox/index.js";
import { withIsolation } from "../support/isolation.js";
import { copyWorkspace, removeWorkspaceCopies, WORKSPACE } from "./workspace.js";

afterAll(removeWorkspaceCopies);

type Sharp = (options: unknown) => { png(): { toBuffer(): Promise<Buffer> } };

/** A 16x8 red PNG, made with the workspace's sharp in this process. */
async function smallPng(): Promise<string> {
  const sharp = createRequire(join(WORKSPACE, "package.json"))("sharp") as Sharp;
  return (
    await sharp({ create: { width: 16, height: 8, channels: 3, background: { r: 255, g: 0, b: 0 } } })
      .png()
      .toBuffer()
  ).toString("base64");
}

describe("sharp as an external package with platform packages", () => {
  it("pins sharp and every platform package package-lock.json lists (optional), and resizes a PNG sandboxed and in process", async () => {
    const root = copyWorkspace(["sharp.ts"]);
    const result = await build({ root });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const lock = result.lock!;
    const packageLock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")).packages as Record<
      string,
      { version: string; integrity: string; optional?: boolean }
    >;
    const sharpPin = packageLock["node_modules/sharp"]!;
    expect(lock.externals["node_modules/sharp"]).toEqual({
      name: "sharp",
      version: sharpPin.version,
      integrity: sharpPin.integrity,
      optional: false,
    });
    // Every platform's binary package of the lockfile is pinned, optional, whichever is installed here.
    const platforms = Object.keys(packageLock).filter((path) => /^node_modules\/@img\/sharp-(?!libvips)/.test(path));
    expect(platforms.length).toBeGreaterThan(5);
    for (const path of platforms)
      expect(lock.externals[path], path).toEqual({
        name: path.slice("node_modules/".length),
        version: packageLock[path]!.version,
        integrity: packageLock[path]!.integrity,
        optional: true,
      });
    expect(lock.tools.sharp_resize!.sandbox.addons).toBe(true);
    expect(lock.osLayerTools).toEqual(["sharp_resize"]);

    const png = await smallPng();
    const runtime = await createRuntime({
      root,
      mode: "host",
      dispatchers: { required: createSandboxDispatcher({ isolation: "os" }) },
    });
    try {
      for (const name of ["sharp_resize", "sharp_resize_host"]) {
        expect(await runtime.call(name, { png, width: 4 }), name).toMatchObject({
          ok: true,
          content: { width: 4, height: 2, format: "png", bytes: expect.any(Number) },
        });
      }
    } finally {
      await runtime.close();
    }
  });

  it("without the OS layer, a build that imports sharp at module level is CAVE5001 saying addons need the OS layer, and writes no lock", async () => {
    const root = copyWorkspace(["sharp.ts"]);
    const result = await withIsolation("node", () => build({ root }));
    const failure = result.diagnostics.find((d) => d.code === "CAVE5001");
    expect(failure?.message).toContain("tools/sharp.ts threw while being imported at build time");
    expect(failure?.hint).toContain(
      'cave build allows that only for a module whose native package is listed in cave.config.json "external", and only under the sandbox\'s OS layer',
    );
    expect(existsSync(join(root, "cave.lock"))).toBe(false);
  });
});
