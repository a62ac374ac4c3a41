import { parseJsonDictionaries } from "../../src/contract/dictionary.js";
import { hashJson, JsonTooDeepError } from "../../src/contract/hash.js";
import { LOCKFILE_VERSION, type CaveLock } from "../../src/contract/lock.js";
import { lockIntegrity, toolEntryHash } from "../../src/contract/lock-seal.js";
import { jsonParseMessage } from "../sandbox/node-features.js";
import { osLayerTools } from "../sandbox/os-only.js";
import { checkLockShape } from "./check-shape.js";
import { upgradeV1 } from "./lock-v1.js";
import type { LockProblem } from "./problems.js";

/**
 * The lock inspector: each check a lock's reader runs, as a function returning problems as data (problems.ts). The
 * runtime's reader (read-lock.ts) runs them on the header at start-up and on an entry at its first use, and refuses
 * at the first problem; inspectLock() runs them all on a whole lock for cave verify, cave diff and cave build --frozen.
 */

/** The lockfileVersion, checked first: another version is sealed differently. `readable` lists the versions this reader reads. */
export function versionProblem(lock: Record<string, unknown>, readable: readonly number[]): LockProblem | undefined {
  return readable.includes(lock.lockfileVersion as number)
    ? undefined
    : { kind: "version", found: lock.lockfileVersion };
}

/** A lock v2's integrity: the hash of everything but `tools` (and itself); `lock` may hold `tools` or not. */
export function integrityProblem(lock: Record<string, unknown>): LockProblem | undefined {
  const { integrity } = lock;
  if (typeof integrity !== "string") return { kind: "no-integrity" };
  const actual = hashed(() => lockIntegrity(lock));
  if (typeof actual !== "string") return actual;
  return actual === integrity ? undefined : { kind: "integrity", said: integrity, actual, over: "header" };
}

/**
 * One tool's entry against its toolHashes pin. `entry` is undefined when the lock has no entry of that name, and holds
 * value undefined when the bytes where the entry is are not JSON (split-lock.ts): those hash to nothing.
 */
export function entryProblem(
  tool: string,
  pinned: unknown,
  entry: { readonly value: unknown } | undefined,
): LockProblem | undefined {
  if (entry === undefined) return { kind: "entry-missing", tool };
  if (pinned === undefined) return { kind: "entry-unpinned", tool };
  const actual = entry.value === undefined ? "(not JSON)" : hashed(() => toolEntryHash(entry.value), tool);
  if (typeof actual !== "string") return actual;
  return actual === pinned ? undefined : { kind: "entry-hash", tool, pinned: String(pinned), actual };
}

/** A hash of lock content; content nested past MAX_JSON_DEPTH, which cave build never writes, is a problem of its own. */
function hashed(hash: () => string, tool?: string): string | LockProblem {
  try {
    return hash();
  } catch (thrown) {
    if (thrown instanceof JsonTooDeepError)
      return tool === undefined ? { kind: "too-deep" } : { kind: "too-deep", tool };
    throw thrown;
  }
}

/** A lock read from text: the lock when it can be used at all (JSON, known version, v2 shape), and every problem found. */
export interface InspectedLockText {
  readonly lock: CaveLock | null;
  readonly problems: readonly LockProblem[];
}

/**
 * A whole lock's text, as cave verify, cave diff and --frozen read it: JSON, then the version (v1 is read too, as v2
 * states the same facts, lock-v1.ts), the seal, references between tools, the shape, and the facts that must agree. The
 * lock is returned whenever it is safe to read (a stale integrity or a dangling name does not stop a diff or a folder check).
 */
export function inspectLock(text: string): InspectedLockText {
  let parsed: Record<string, unknown>;
  try {
    parsed = parseJsonDictionaries(text) as Record<string, unknown>;
  } catch (thrown) {
    return { lock: null, problems: [{ kind: "not-json", detail: jsonParseMessage(thrown) }] };
  }
  if (!isRecord(parsed)) return { lock: null, problems: [{ kind: "not-object" }] };
  const version = versionProblem(parsed, [1, LOCKFILE_VERSION]);
  if (version !== undefined) return { lock: null, problems: [version] };

  const problems: LockProblem[] = [];
  if (parsed.lockfileVersion === 1) {
    const { integrity, ...body } = parsed;
    const actual = hashJson(body);
    if (typeof integrity !== "string") problems.push({ kind: "no-integrity" });
    else if (integrity !== actual) problems.push({ kind: "integrity", said: integrity, actual, over: "all" });
    parsed = upgradeV1(parsed) as unknown as Record<string, unknown>;
  } else problems.push(...sealProblems(parsed));

  const dangling = danglingReferences(parsed);
  problems.push(...dangling);
  // The shape check also refuses dangling names; they are reported above with their own kind, so it sees them removed.
  const shape = checkLockShape(dangling.length === 0 ? parsed : withoutDangling(parsed));
  if (shape !== undefined) return { lock: null, problems: [...problems, { kind: "shape", detail: shape }] };
  const lock = parsed as unknown as CaveLock;
  problems.push(...duplicateExports(lock));
  const needing = osLayerTools(lock.tools);
  if (needing.join("\n") !== lock.osLayerTools.join("\n"))
    problems.push({ kind: "os-layer", listed: lock.osLayerTools, needing });
  return { lock, problems };
}

/** A lock v2's seal (src/contract/lock-seal.ts): the integrity, and each entry against its toolHashes pin, every difference named. */
function sealProblems(lock: Record<string, unknown>): LockProblem[] {
  const problems: LockProblem[] = [];
  const integrity = integrityProblem(lock);
  if (integrity !== undefined) problems.push(integrity);
  const tools = isRecord(lock.tools) ? lock.tools : {};
  const hashes = isRecord(lock.toolHashes) ? lock.toolHashes : {};
  for (const name of [...new Set([...Object.keys(hashes), ...Object.keys(tools)])].sort(compare)) {
    const problem = entryProblem(
      name,
      Object.hasOwn(hashes, name) ? hashes[name] : undefined,
      Object.hasOwn(tools, name) ? { value: tools[name] } : undefined,
    );
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/** Agent tools and nested tools that name no locked tool. */
function danglingReferences(lock: Record<string, unknown>): LockProblem[] {
  const tools = isRecord(lock.tools) ? lock.tools : {};
  const out: LockProblem[] = [];
  const scan = (owners: unknown, kind: "agents" | "tools", key: "tools" | "nestedTools") => {
    if (!isRecord(owners)) return;
    for (const owner of Object.keys(owners).sort()) {
      const names = (owners[owner] as Record<string, unknown> | null)?.[key];
      if (!Array.isArray(names)) continue;
      for (const name of names) {
        if (typeof name === "string" && !Object.hasOwn(tools, name))
          out.push({
            kind: "dangling",
            at: `${kind === "agents" ? "agent" : "tool"} ${JSON.stringify(owner)} (${key})`,
            tool: name,
          });
      }
    }
  };
  scan(lock.agents, "agents", "tools");
  scan(lock.tools, "tools", "nestedTools");
  return out;
}

function withoutDangling(lock: Record<string, unknown>): Record<string, unknown> {
  const tools = isRecord(lock.tools) ? lock.tools : {};
  const keep = (names: unknown) =>
    Array.isArray(names) ? names.filter((n) => typeof n !== "string" || Object.hasOwn(tools, n)) : names;
  const mapOwners = (owners: unknown, key: string) =>
    isRecord(owners)
      ? Object.fromEntries(
          Object.entries(owners).map(([name, owner]) => [
            name,
            isRecord(owner) ? { ...owner, [key]: keep(owner[key]) } : owner,
          ]),
        )
      : owners;
  return { ...lock, agents: mapOwners(lock.agents, "tools"), tools: mapOwners(lock.tools, "nestedTools") };
}

/** The runtime imports a tool by module and export; two names for one export mean a lock cave build did not write. */
function duplicateExports(lock: CaveLock): LockProblem[] {
  const owners = new Map<string, string[]>();
  for (const name of Object.keys(lock.tools).sort()) {
    const tool = lock.tools[name]!;
    const key = `${tool.module}#${tool.export}`;
    owners.set(key, [...(owners.get(key) ?? []), name]);
  }
  const out: LockProblem[] = [];
  for (const [key, names] of [...owners].sort(([a], [b]) => compare(a, b)))
    if (names.length > 1) out.push({ kind: "duplicate-export", tools: names, export: key });
  return out;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Code-unit order, independent of locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
