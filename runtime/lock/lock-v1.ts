import type { CaveLock } from "../../src/contract/lock.js";
import { toolEntryHash } from "../../src/contract/lock-seal.js";
import { osLayerTools } from "../sandbox/os-only.js";

/**
 * A lockfileVersion 1 lock as the v2 shape states the same facts, for `cave diff` and `cave verify` (the runtime refuses
 * v1: read-lock.ts): what v1 wrote as optional fields, absent when empty, become the regular fields v2 always writes, and
 * toolHashes and osLayerTools are derived from the entries. lockfileVersion and integrity stay v1's, so a diff shows the
 * version change and names the lock it read. Its integrity was checked before this, the v1 way (one hash over all).
 */
export function upgradeV1(lock: Record<string, unknown>): CaveLock {
  const tools: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const given = isRecord(lock.tools) ? lock.tools : {};
  for (const name of Object.keys(given)) tools[name] = upgradeTool(given[name]);
  const externals: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const pins = isRecord(lock.externals) ? lock.externals : {};
  for (const path of Object.keys(pins))
    externals[path] = isRecord(pins[path]) ? { ...pins[path], optional: false } : pins[path];
  const toolHashes: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(tools).sort()) toolHashes[name] = toolEntryHash(tools[name]);
  const upgraded = { ...lock, externals, tools, toolHashes } as unknown as CaveLock;
  // Derived from well-formed entries only; a malformed one is the shape check's to report.
  let needing: string[] = [];
  try {
    needing = osLayerTools(upgraded.tools);
  } catch {
    needing = [];
  }
  return { ...upgraded, osLayerTools: needing };
}

function upgradeTool(entry: unknown): unknown {
  if (!isRecord(entry)) return entry;
  const sandbox = isRecord(entry.sandbox)
    ? { egress: [], secrets: {}, fs: null, addons: false, ...entry.sandbox }
    : entry.sandbox;
  const source = isRecord(entry.source) ? { assets: [], externals: [], ...entry.source } : entry.source;
  return { ...entry, sandbox, source };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
