import { lstat, readdir, readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import type { CaveCode } from "../src/contract/codes.js";
import { hashJson, sha256 } from "../src/contract/hash.js";
import { parseJsonDictionaries } from "../src/contract/dictionary.js";
import { LOCKFILE_VERSION, type CaveLock } from "../src/contract/lock.js";
import { lockIntegrity, toolEntryHash } from "../src/contract/lock-seal.js";
import { checkLockShape } from "./lock/check-shape.js";
import { upgradeV1 } from "./lock/lock-v1.js";
import { osLayerTools } from "./sandbox/os-only.js";
import { checkExternals, readManifest } from "./externals.js";
import { RuntimeError } from "./errors.js";
import { jsonParseMessage } from "./node-features.js";

/** One thing wrong with a lock or its build folder: a stable code and one line naming the file or tool. */
export interface DeploymentProblem {
  readonly code: CaveCode;
  readonly message: string;
}

/** A lock read from text: the lock when it can be used at all (JSON, known version, v1 shape), and every problem found. */
export interface InspectedLock {
  readonly lock: CaveLock | null;
  readonly problems: readonly DeploymentProblem[];
}

/**
 * Checks a build folder and its lock as a deploy would: the lock parses, its version is supported,
 * its integrity matches, every file it pins is present with its hash, the build folder holds nothing
 * else, and every tool an agent or a composite names is locked. `lockPath` is relative to `root`
 * (default "cave.lock"). Returns the problems, one line each, in a stable order; [] means deployable.
 */
export async function checkDeployment(root: string, lockPath = "cave.lock"): Promise<DeploymentProblem[]> {
  const absolute = isAbsolute(lockPath) ? lockPath : join(root, lockPath);
  const shown = toPosix(relative(root, absolute));
  let text: string;
  try {
    text = await readFile(absolute, "utf8");
  } catch (thrown) {
    const code = errorCode(thrown);
    if (code === "ENOENT" || code === "ENOTDIR") return [{ code: "CAVE9001", message: `${shown} does not exist; run cave build in the project root` }];
    return [{ code: "CAVE9001", message: `${shown} could not be read (${code ?? "read error"}); check its permissions` }];
  }
  const inspected = inspectLock(text, shown);
  if (inspected.lock === null) return [...inspected.problems];
  // Read (cave diff compares it), but not run: the runtime verifies each entry against toolHashes, which v1 lacks.
  const v1: DeploymentProblem[] = inspected.lock.lockfileVersion === 1 ? [{ code: "CAVE9003", message: `${shown} has lockfileVersion 1 (an earlier cave build): this Cave reads it for cave diff and cave verify, but its runtime runs lockfileVersion ${LOCKFILE_VERSION} only; run cave build and deploy the new lock with its build folder` }] : [];
  return [...v1, ...inspected.problems, ...(await checkBuildFolder(root, inspected.lock)), ...externalProblems(root, inspected.lock)];
}

/** The installed external packages against the lock's pins (and the deploy's manifest, when there is one): one problem at most. */
function externalProblems(root: string, lock: CaveLock): DeploymentProblem[] {
  const pins = lock.externals;
  if (pins === undefined) return [];
  try {
    checkExternals(root, Object.keys(pins).sort(), pins, readManifest(root, lock.integrity), "the lock");
    return [];
  } catch (thrown) {
    if (thrown instanceof RuntimeError) return [{ code: "CAVE9120", message: thrown.message }];
    throw thrown;
  }
}

/**
 * Reads a lock's text: JSON, then the version (first: another version may hash differently), then
 * integrity, references between tools, consistency, and the v1 shape. The lock is returned whenever
 * it is safe to read (a stale integrity or a dangling name does not stop a diff or a folder check).
 */
export function inspectLock(text: string, shown: string): InspectedLock {
  let parsed: Record<string, unknown>;
  try {
    parsed = parseJsonDictionaries(text) as Record<string, unknown>;
  } catch (thrown) {
    return fatal("CAVE9002", `${shown} is not valid JSON (${jsonParseMessage(thrown)}); restore it from version control or run cave build`);
  }
  if (!isRecord(parsed)) return fatal("CAVE9002", `${shown} is not a JSON object; restore it from version control or run cave build`);
  if (parsed.lockfileVersion !== LOCKFILE_VERSION && parsed.lockfileVersion !== 1) {
    const found = typeof parsed.lockfileVersion === "number" ? `lockfileVersion ${parsed.lockfileVersion}` : "no numeric lockfileVersion";
    return fatal("CAVE9003", `${shown} has ${found}, but this Cave reads lockfileVersion 1 and ${LOCKFILE_VERSION}; build it with the Cave version that deploys it`);
  }

  const problems: DeploymentProblem[] = [];
  if (parsed.lockfileVersion === 1) {
    // Lock v1: one hash over everything but integrity. Read as the v2 shape states the same facts (lock-v1.ts).
    const { integrity, ...body } = parsed;
    const actual = hashJson(body);
    if (typeof integrity !== "string") problems.push({ code: "CAVE9004", message: `${shown}: integrity must be a sha256-<64 hex> hash; run cave build to write the lock again` });
    else if (integrity !== actual) problems.push({ code: "CAVE9005", message: `${shown} was edited after cave build: its integrity says ${integrity}, its content hashes to ${actual}; run cave build instead of editing the lock` });
    parsed = upgradeV1(parsed) as unknown as Record<string, unknown>;
  } else problems.push(...sealProblems(parsed, shown));

  const dangling = danglingReferences(parsed);
  for (const { at, name } of dangling) {
    problems.push({ code: "CAVE9009", message: `${shown}: ${at} names tool ${JSON.stringify(name)}, which is not in the lock; run cave build again` });
  }
  // The shape check also refuses dangling names; they are reported above with their own code, so it sees them removed.
  const shapeProblem = checkLockShape(dangling.length === 0 ? parsed : withoutDangling(parsed));
  if (shapeProblem !== undefined) {
    problems.push({ code: "CAVE9004", message: `${shown} is not a valid lockfileVersion ${LOCKFILE_VERSION} lock: ${shapeProblem}; run cave build to write it again` });
    return { lock: null, problems };
  }
  const lock = parsed as unknown as CaveLock;
  problems.push(...duplicateExports(lock, shown));
  const needing = osLayerTools(lock.tools);
  if (needing.join("\n") !== lock.osLayerTools.join("\n")) {
    problems.push({ code: "CAVE9010", message: `${shown}: osLayerTools lists ${JSON.stringify(lock.osLayerTools)}, but the tools whose sandbox holds a power only the OS layer enforces are ${JSON.stringify(needing)}; run cave build again` });
  }
  return { lock, problems };
}

/**
 * A lock v2's seal (src/contract/lock-seal.ts): the integrity over everything but the entries, and each entry against
 * its toolHashes pin, every difference named; osLayerTools against the entries.
 */
function sealProblems(lock: Record<string, unknown>, shown: string): DeploymentProblem[] {
  const problems: DeploymentProblem[] = [];
  const { integrity } = lock;
  const actual = lockIntegrity(lock);
  if (typeof integrity !== "string") problems.push({ code: "CAVE9004", message: `${shown}: integrity must be a sha256-<64 hex> hash; run cave build to write the lock again` });
  else if (integrity !== actual) problems.push({ code: "CAVE9005", message: `${shown} was edited after cave build: its integrity says ${integrity}, its content without the tools' entries hashes to ${actual}; run cave build instead of editing the lock` });
  const tools = isRecord(lock.tools) ? lock.tools : {};
  const hashes = isRecord(lock.toolHashes) ? lock.toolHashes : {};
  for (const name of [...new Set([...Object.keys(hashes), ...Object.keys(tools)])].sort(compare)) {
    const what = `${shown}: tool ${JSON.stringify(name)}`;
    if (!Object.hasOwn(tools, name)) problems.push({ code: "CAVE9005", message: `${what} is pinned in toolHashes but has no entry (the lock was cut short or edited after cave build); run cave build instead of editing the lock` });
    else if (!Object.hasOwn(hashes, name)) problems.push({ code: "CAVE9005", message: `${what} has an entry that toolHashes does not pin, so no runtime would run it (it was added after cave build); run cave build instead of editing the lock` });
    else {
      const entryHash = toolEntryHash(tools[name]);
      if (entryHash !== hashes[name]) problems.push({ code: "CAVE9005", message: `${what}: its entry was edited after cave build (toolHashes says ${String(hashes[name])}, the entry hashes to ${entryHash}); run cave build instead of editing the lock` });
    }
  }
  return problems;
}

function fatal(code: CaveCode, message: string): InspectedLock {
  return { lock: null, problems: [{ code, message }] };
}

/** Agent tools and nested tools that name no locked tool. */
function danglingReferences(lock: Record<string, unknown>): Array<{ at: string; name: string }> {
  const tools = isRecord(lock.tools) ? lock.tools : {};
  const out: Array<{ at: string; name: string }> = [];
  const scan = (owners: unknown, kind: "agents" | "tools", key: "tools" | "nestedTools") => {
    if (!isRecord(owners)) return;
    for (const owner of Object.keys(owners).sort()) {
      const names = (owners[owner] as Record<string, unknown> | null)?.[key];
      if (!Array.isArray(names)) continue;
      for (const name of names) if (typeof name === "string" && !Object.hasOwn(tools, name)) out.push({ at: `${kind === "agents" ? "agent" : "tool"} ${JSON.stringify(owner)} (${key})`, name });
    }
  };
  scan(lock.agents, "agents", "tools");
  scan(lock.tools, "tools", "nestedTools");
  return out;
}

function withoutDangling(lock: Record<string, unknown>): Record<string, unknown> {
  const tools = isRecord(lock.tools) ? lock.tools : {};
  const keep = (names: unknown) => (Array.isArray(names) ? names.filter((n) => typeof n !== "string" || Object.hasOwn(tools, n)) : names);
  const mapOwners = (owners: unknown, key: string) =>
    isRecord(owners) ? Object.fromEntries(Object.entries(owners).map(([name, owner]) => [name, isRecord(owner) ? { ...owner, [key]: keep(owner[key]) } : owner])) : owners;
  return { ...lock, agents: mapOwners(lock.agents, "tools"), tools: mapOwners(lock.tools, "nestedTools") };
}

/** The runtime imports a tool by module and export; two names for one export mean a lock cave build did not write. */
function duplicateExports(lock: CaveLock, shown: string): DeploymentProblem[] {
  const owners = new Map<string, string[]>();
  for (const name of Object.keys(lock.tools).sort()) {
    const tool = lock.tools[name]!;
    const key = `${tool.module}#${tool.export}`;
    owners.set(key, [...(owners.get(key) ?? []), name]);
  }
  const out: DeploymentProblem[] = [];
  for (const [key, names] of [...owners].sort(([a], [b]) => compare(a, b))) {
    if (names.length > 1) out.push({ code: "CAVE9010", message: `${shown}: tools ${names.map((n) => JSON.stringify(n)).join(" and ")} both claim export ${key}; run cave build again` });
  }
  return out;
}

interface PinnedFile {
  readonly sha256: string;
  /** Who pins it, for messages: `bundle of tool "x"`. */
  readonly owners: string[];
}

/**
 * Every build-folder file the lock pins: any object in the lock holding a path inside the build
 * folder (under module, bundle, path or file) next to a sha256. That covers bundles and validators
 * today and any file a later part of the lock pins the same way, so it is never reported as extra.
 */
function pinnedFiles(lock: CaveLock): { files: Map<string, PinnedFile>; problems: DeploymentProblem[] } {
  const files = new Map<string, PinnedFile>();
  const problems: DeploymentProblem[] = [];
  const prefix = `${lock.buildDir}/`;
  const visit = (value: unknown, owner: string, at: readonly string[]) => {
    if (Array.isArray(value)) return value.forEach((item, i) => visit(item, owner, [...at, String(i)]));
    if (!isRecord(value)) return;
    for (const key of ["bundle", "module", "path", "file"]) {
      const path = value[key];
      if (typeof path !== "string" || typeof value.sha256 !== "string" || !path.startsWith(prefix)) continue;
      const what = `${describePin([...at, key].join("."))} of ${owner}`;
      const known = files.get(path);
      if (!known) files.set(path, { sha256: value.sha256, owners: [what] });
      else if (known.sha256 !== value.sha256) {
        problems.push({ code: "CAVE9010", message: `${path} is pinned with two different hashes (${known.owners[0]} and ${what}); run cave build again` });
      } else known.owners.push(what);
    }
    for (const key of Object.keys(value).sort()) visit(value[key], owner, [...at, key]);
  };
  for (const name of Object.keys(lock.tools).sort()) {
    const tool = lock.tools[name]!;
    // Bundles and validators must live in the build folder: a path elsewhere would load unreviewed code.
    const paths: Array<[string, string]> = [["source.bundle", tool.source.bundle]];
    for (const side of ["input", "output"] as const) {
      const validation = tool[side]?.validation;
      if (validation?.kind === "precompiled") paths.push([`${side}.validation.module`, validation.module]);
    }
    for (const [at, path] of paths) {
      if (!path.startsWith(prefix)) problems.push({ code: "CAVE9004", message: `tool ${JSON.stringify(name)}: ${at} ${path} is outside the build folder ${lock.buildDir}; run cave build to write the lock again` });
    }
    visit(tool, `tool ${JSON.stringify(name)}`, []);
  }
  for (const key of Object.keys(lock).sort()) if (key !== "tools" && key !== "agents") visit((lock as unknown as Record<string, unknown>)[key], "the lock", [key]);
  return { files, problems };
}

/** "staged bundle", "input validator"...: what a pinned file is, from where the lock pins it. */
function describePin(at: string): string {
  const known: Record<string, string> = {
    "source.bundle": "staged bundle",
    "input.validation.module": "input validator",
    "output.validation.module": "output validator",
    "result.plan.transform.module": "result transform",
  };
  return known[at] ?? `file pinned at ${at}`;
}

async function checkBuildFolder(root: string, lock: CaveLock): Promise<DeploymentProblem[]> {
  const { files, problems } = pinnedFiles(lock);
  const folder = join(root, lock.buildDir);
  const folderStat = await lstat(folder).catch(() => null);
  if (folderStat === null || !folderStat.isDirectory()) {
    problems.push({ code: "CAVE9011", message: `the build folder ${lock.buildDir} does not exist; deploy it together with the lock, or run cave build` });
    return problems;
  }
  for (const [path, pinned] of [...files].sort(([a], [b]) => compare(a, b))) {
    const what = pinned.owners[0]!;
    const stat = await lstat(join(root, path)).catch(() => null);
    if (stat === null) {
      problems.push({ code: "CAVE9006", message: `${path} is missing (${what}); deploy the build folder together with the lock, or run cave build` });
      continue;
    }
    if (!stat.isFile()) {
      problems.push({ code: "CAVE9006", message: `${path} is not a regular file (${what}); deploy the files cave build wrote, not links to them` });
      continue;
    }
    const actual = sha256(await readFile(join(root, path)));
    if (actual !== pinned.sha256) {
      problems.push({ code: "CAVE9007", message: `${path} does not match the lock (${what}): the lock says ${pinned.sha256}, the file hashes to ${actual}; run cave build and deploy its output unchanged` });
    }
  }
  for (const path of await listFiles(root, lock.buildDir)) {
    if (!files.has(path)) problems.push({ code: "CAVE9008", message: `${path} is in the build folder but the lock does not reference it; remove it, or run cave build to rewrite the folder` });
  }
  return problems;
}

/** Every non-directory entry under `dir` (relative to root), as sorted POSIX paths relative to the root. */
async function listFiles(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relativeDir: string) => {
    const entries = await readdir(join(root, relativeDir), { withFileTypes: true });
    for (const entry of entries) {
      const path = `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else out.push(path);
    }
  };
  await walk(dir);
  return out.sort(compare);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function errorCode(thrown: unknown): string | undefined {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** Code-unit order, independent of locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
