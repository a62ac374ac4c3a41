import type { CaveLock } from "../src/contract/lock.js";
import { RuntimeError } from "./errors.js";
import { readVerified } from "./loader.js";

/**
 * Eager verification for deploy checks: reads every staged bundle, the SDK module and every precompiled validator the lock
 * names and checks its sha256, without importing anything (importing would run tool code in this
 * process). Lazy loading still re-checks the bytes it imports. Throws one LOCK_MISMATCH listing
 * every problem, sorted.
 */
export async function verifyAll(root: string, lock: CaveLock): Promise<void> {
  const files = new Map<string, { expected: string; what: string }>();
  for (const name of Object.keys(lock.tools).sort()) {
    const tool = lock.tools[name]!;
    if (!files.has(tool.source.bundle)) files.set(tool.source.bundle, { expected: tool.source.sha256, what: `tool "${name}": its staged bundle` });
    for (const side of ["input", "output"] as const) {
      const validation = tool[side]?.validation;
      if (validation?.kind === "precompiled" && !files.has(validation.module)) files.set(validation.module, { expected: validation.sha256, what: `tool "${name}": its ${side} validator` });
    }
    for (const asset of tool.source.assets ?? []) if (!files.has(asset.path)) files.set(asset.path, { expected: asset.sha256, what: `tool "${name}": the file` });
    const transform = tool.result.plan.transform;
    if (transform !== null && !files.has(transform.module)) files.set(transform.module, { expected: transform.sha256, what: `tool "${name}": its result transform ${transform.id}@${transform.version}` });
  }
  const sdk = lock.sdk?.module;
  if (sdk !== undefined) files.set(sdk.path, { expected: sdk.sha256, what: "the SDK module every bundle imports" });
  const problems: string[] = [];
  for (const [path, { expected, what }] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    try {
      await readVerified(root, path, expected, what);
    } catch (thrown) {
      if (!(thrown instanceof RuntimeError)) throw thrown;
      problems.push(thrown.message);
    }
  }
  if (problems.length === 1) throw new RuntimeError("LOCK_MISMATCH", problems[0]!);
  if (problems.length > 1) throw new RuntimeError("LOCK_MISMATCH", `${problems.length} files do not match the lock: ${problems.join(" | ")}`);
}
