import type { LockedTool } from "../../src/contract/lock.js";
import type { RuntimeLock } from "../lock/read-lock.js";
import { RuntimeError } from "../errors.js";
import { readVerified } from "./loader.js";

/**
 * Eager verification for deploy checks: reads every staged bundle, the SDK module and every precompiled validator the lock
 * names and checks its sha256, without importing anything (importing would run tool code in this
 * process), after every tool's entry against its toolHashes pin. Lazy loading still re-checks the
 * bytes it imports. Throws one error listing every problem (LOCK_MISMATCH, or LOCK_INVALID when
 * every problem is a malformed entry).
 */
export async function verifyAll(root: string, lock: RuntimeLock): Promise<void> {
  const files = new Map<string, { expected: string; what: string }>();
  const problems: Array<{ code: RuntimeError["code"]; message: string }> = [];
  for (const name of lock.toolNames) {
    let tool: LockedTool;
    try {
      // Its entry first: one that does not match its toolHashes pin is a problem of its own.
      tool = lock.tool(name)!;
    } catch (thrown) {
      if (!(thrown instanceof RuntimeError)) throw thrown;
      problems.push({ code: thrown.code, message: thrown.message });
      continue;
    }
    if (!files.has(tool.source.bundle))
      files.set(tool.source.bundle, { expected: tool.source.sha256, what: `tool "${name}": its staged bundle` });
    for (const side of ["input", "output"] as const) {
      const validation = tool[side]?.validation;
      if (validation?.kind === "precompiled" && !files.has(validation.module))
        files.set(validation.module, { expected: validation.sha256, what: `tool "${name}": its ${side} validator` });
    }
    for (const asset of tool.source.assets)
      if (!files.has(asset.path)) files.set(asset.path, { expected: asset.sha256, what: `tool "${name}": the file` });
    const transform = tool.result.plan.transform;
    if (transform !== null && !files.has(transform.module))
      files.set(transform.module, {
        expected: transform.sha256,
        what: `tool "${name}": its result transform ${transform.id}@${transform.version}`,
      });
  }
  const sdk = lock.sdk?.module;
  if (sdk !== undefined) files.set(sdk.path, { expected: sdk.sha256, what: "the SDK module every bundle imports" });
  for (const [path, { expected, what }] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    try {
      await readVerified(root, path, expected, what);
    } catch (thrown) {
      if (!(thrown instanceof RuntimeError)) throw thrown;
      problems.push({ code: thrown.code, message: thrown.message });
    }
  }
  if (problems.length === 0) return;
  // One code when every problem has it (LOCK_INVALID for malformed entries), else LOCK_MISMATCH.
  const code = problems.every((p) => p.code === problems[0]!.code) ? problems[0]!.code : "LOCK_MISMATCH";
  throw new RuntimeError(
    code,
    problems.length === 1
      ? problems[0]!.message
      : `${problems.length} entries or files do not match the lock: ${problems.map((p) => p.message).join(" | ")}`,
  );
}
