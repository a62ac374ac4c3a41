import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CaveLock } from "../src/contract/lock.js";
import { deploymentProblem, type DeploymentProblem } from "../runtime/lock/deploy-check.js";
import { RuntimeError } from "../runtime/errors.js";
import { manifestFor, MANIFEST_FILE } from "../runtime/loading/externals.js";
import { stableJson } from "./diff/stable-json.js";

/**
 * `cave verify --write-manifest`: records, on the deploy machine, the sha256 of every file of the installed external
 * packages the lock pins (their native binaries are this machine's own), in cave.manifest.json beside the lock's
 * project root. Written whole through a temporary file, so a reader sees the old manifest or the new one.
 */
export function writeManifest(root: string, lockPath: string): { packages: number } | { problem: DeploymentProblem } {
  const lock = JSON.parse(readFileSync(join(root, lockPath), "utf8")) as CaveLock;
  let manifest;
  try {
    manifest = manifestFor(root, lock.integrity, lock.externals);
  } catch (thrown) {
    if (thrown instanceof RuntimeError)
      return { problem: deploymentProblem({ kind: "externals", message: thrown.message }, lockPath) };
    throw thrown;
  }
  const target = join(root, MANIFEST_FILE);
  writeFileSync(`${target}.tmp`, stableJson(manifest), { mode: 0o644 });
  renameSync(`${target}.tmp`, target);
  return { packages: Object.keys(manifest.packages).length };
}
