// Issue 11, item 7: the lock depends on the commit only. The example checked out by git with CRLF line endings
// (core.autocrlf, as on Windows) and the example built with cave installed from its packed tarball (the registry
// layout: node_modules/cave with its dependencies hoisted beside it) give the same lock, byte for byte.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../compiler/build.js";
import { REPO_ROOT } from "./support/golden.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** The example as git checks it out of HEAD with the given line-ending setting, in a fresh folder (a project root). */
function checkout(autocrlf: boolean): string {
  const clone = temp("cave-checkout-");
  git(clone, "init", "-q");
  git(clone, "config", "core.autocrlf", autocrlf ? "true" : "false");
  git(clone, "fetch", "-q", "--depth=1", REPO_ROOT, "HEAD");
  // The repository's .gitattributes (if any) applies as in any checkout.
  git(
    clone,
    "checkout",
    "-q",
    "FETCH_HEAD",
    "--",
    "examples/support-desk",
    ...(existsSync(join(REPO_ROOT, ".gitattributes")) ? [".gitattributes"] : []),
  );
  return join(clone, "examples/support-desk");
}

function textFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|json|md)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the lock depends on the commit only", () => {
  it("a CRLF checkout builds the same lock as an LF checkout", async () => {
    const lf = checkout(false);
    const crlf = checkout(true);
    // The checkout really has CRLF endings (else this test would prove nothing).
    expect(textFiles(crlf).some((file) => readFileSync(file, "utf8").includes("\r\n"))).toBe(true);
    expect(textFiles(lf).every((file) => !readFileSync(file, "utf8").includes("\r\n"))).toBe(true);
    for (const root of [lf, crlf]) symlinkSync(join(REPO_ROOT, "node_modules"), join(root, "node_modules"), "dir");
    const a = await build({ root: lf, write: false });
    const b = await build({ root: crlf, write: false });
    expect(a.diagnostics).toEqual([]);
    expect(b.diagnostics).toEqual([]);
    expect(b.lockText).toBe(a.lockText);
    expect([...b.files.entries()]).toEqual([...a.files.entries()]);
  }, 300_000);

  it("cave installed from its packed tarball builds the same lock as the linked checkout", async () => {
    // npm pack gives exactly what the registry would serve; it is unpacked as node_modules/cave, and cave's
    // dependencies sit beside it (npm hoists them there), none of them under the checkout.
    const packs = temp("cave-pack-");
    const tarball = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", packs], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop()!;
    const project = temp("cave-packed-");
    const modules = join(project, "node_modules");
    mkdirSync(join(modules, "cave"), { recursive: true });
    execFileSync("tar", ["-xzf", join(packs, tarball), "-C", join(modules, "cave"), "--strip-components=1"]);
    for (const name of readdirSync(join(REPO_ROOT, "node_modules"))) {
      if (name === "cave" || name.startsWith(".")) continue;
      symlinkSync(join(REPO_ROOT, "node_modules", name), join(modules, name));
    }
    const example = checkout(false);
    execFileSync("cp", ["-R", `${example}/.`, project]);
    const linked = checkout(false);
    symlinkSync(join(REPO_ROOT, "node_modules"), join(linked, "node_modules"), "dir");

    const packedBuild = await import(join(modules, "cave/dist/compiler/build.js"));
    const fromPack = await packedBuild.build({ root: project, write: false });
    const fromCheckout = await build({ root: linked, write: false });
    expect(fromPack.diagnostics).toEqual([]);
    expect(fromCheckout.diagnostics).toEqual([]);
    expect(fromPack.lockText).toBe(fromCheckout.lockText);
    const everything = [fromPack.lockText, ...fromPack.files.values()].join("\n");
    expect(everything).not.toContain(project);
    expect(everything).not.toContain("/tmp/");
  }, 300_000);
});
