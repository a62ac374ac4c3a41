import { describeFs } from "../../src/contract/fs-scopes.js";
import { dictionary } from "../../src/contract/dictionary.js";
import { scopeChanges } from "./scope-changes.js";
import type { CaveLock, LockedAgent, LockedSdk, LockedTool } from "../../src/contract/lock.js";
import { EFFECT_MEANING, describeTimeout, listWords, quote } from "./describe.js";
import { sameJson, toolChanges } from "./tool-changes.js";
import {
  SECTIONS,
  sectionOf,
  type ChangeKind,
  type Impact,
  type LockChange,
  type LockDiff,
  type LockSide,
} from "./types.js";

/** A lock with no tools and no agents: what a diff compares against when one side has no lock yet. */
const EMPTY_LOCK_FACTS: Pick<CaveLock, "agents" | "tools"> = { agents: dictionary(), tools: dictionary() };

export interface DiffInput {
  /** null when that side has no lock (a first build, or a revision before Cave was added). */
  readonly lock: CaveLock | null;
  readonly label: string;
}

/**
 * The semantic diff of two locks: what each tool and agent may do, what callers and consumers see,
 * and what moved underneath. Every difference between the two locks ends up in a change; what
 * cannot be judged is "unclassified", never silently compatible.
 */
export function diffLocks(base: DiffInput, head: DiffInput, warnings: LockDiff["warnings"] = []): LockDiff {
  const b: Pick<CaveLock, "agents" | "tools"> = base.lock ?? EMPTY_LOCK_FACTS;
  const h: Pick<CaveLock, "agents" | "tools"> = head.lock ?? EMPTY_LOCK_FACTS;
  const changes: LockChange[] = [];
  const renames = pairRenames(b.tools, h.tools);
  const renamedTo = new Set(renames.values());

  for (const [from, to] of renames) {
    const before = b.tools[from]!;
    const after = h.tools[to]!;
    const how =
      before.module === after.module && before.export === after.export
        ? `same export ${after.export} of ${after.module}`
        : `same staged source ${after.source.bundle}`;
    changes.push(
      change(
        "tool-renamed",
        "breaking",
        to,
        `renamed from ${quote(from)} (${how}): callers that use the old name break`,
        from,
        to,
      ),
    );
    changes.push(...toolChanges(to, before, after, renames));
  }
  for (const name of Object.keys(b.tools).sort()) {
    if (renames.has(name)) continue;
    if (!Object.hasOwn(h.tools, name))
      changes.push(
        change(
          "tool-removed",
          "breaking",
          name,
          "tool removed: agents and callers that use it break",
          b.tools[name],
          null,
        ),
      );
    else changes.push(...toolChanges(name, b.tools[name]!, h.tools[name]!, renames));
  }
  for (const name of Object.keys(h.tools).sort()) {
    if (Object.hasOwn(b.tools, name) || renamedTo.has(name)) continue;
    const tool = h.tools[name]!;
    changes.push({
      ...change("tool-added", "risky", name, describeNewTool(tool), null, tool),
      details: [tool.description],
    });
    changes.push(...scopeChanges(name, null, tool.sandbox));
  }
  changes.push(...agentChanges(b.agents, h.agents, renames, h.tools));
  if (base.lock && head.lock) changes.push(...lockChanges(base.lock, head.lock));

  return {
    base: side(base),
    head: side(head),
    changes: sortChanges(changes),
    warnings,
  };
}

function side(input: DiffInput): LockSide {
  return { label: input.label, integrity: input.lock?.integrity ?? null };
}

function change(
  kind: ChangeKind,
  impact: Impact,
  tool: string,
  message: string,
  before: unknown,
  after: unknown,
): LockChange {
  return {
    kind,
    impact,
    subject: { type: "tool", name: tool },
    path: null,
    message,
    details: [],
    before: before ?? null,
    after: after ?? null,
  };
}

/** "new tool: effect write (mutates something), sandbox required, no environment, timeout 30000 ms (30 s)". */
function describeNewTool(tool: LockedTool): string {
  const sandbox = tool.sandbox.mode === "none" ? "sandbox OFF (runs in the host process)" : "sandboxed";
  const env = tool.sandbox.env.length === 0 ? "no environment variables" : `environment ${listWords(tool.sandbox.env)}`;
  const nested = tool.nestedTools.length === 0 ? "" : `, may call ${listWords(tool.nestedTools.map(quote))}`;
  const repeat = tool.allowRepeat ? ", identical repeated calls allowed" : "";
  const fs = tool.sandbox.fs === null ? "" : `, ${describeFs(tool.sandbox.fs)}`;
  const addons = tool.sandbox.addons === true ? ", loads native addons" : "";
  return `new tool: effect ${tool.effect} (${EFFECT_MEANING[tool.effect]}), ${sandbox}, ${env}${fs}${addons}${nested}${repeat}, timeout ${describeTimeout(tool.timeoutMs)}`;
}

/**
 * Pairs a removed tool with an added one when they are the same definition under a new name: the
 * same module and export, or else the only removed and the only added tool with one staged source.
 */
function pairRenames(
  before: Readonly<Record<string, LockedTool>>,
  after: Readonly<Record<string, LockedTool>>,
): Map<string, string> {
  const removed = Object.keys(before)
    .filter((n) => !Object.hasOwn(after, n))
    .sort();
  const added = Object.keys(after)
    .filter((n) => !Object.hasOwn(before, n))
    .sort();
  const pairs = new Map<string, string>();
  const taken = new Set<string>();
  for (const from of removed) {
    const b = before[from]!;
    const to = added.find((n) => !taken.has(n) && after[n]!.module === b.module && after[n]!.export === b.export);
    if (to !== undefined) {
      pairs.set(from, to);
      taken.add(to);
    }
  }
  const bySource = (
    names: readonly string[],
    tools: Readonly<Record<string, LockedTool>>,
    skip: (n: string) => boolean,
  ) => {
    const groups = new Map<string, string[]>();
    for (const n of names)
      if (!skip(n)) groups.set(tools[n]!.source.sha256, [...(groups.get(tools[n]!.source.sha256) ?? []), n]);
    return groups;
  };
  const removedBySource = bySource(removed, before, (n) => pairs.has(n));
  const addedBySource = bySource(added, after, (n) => taken.has(n));
  for (const [hash, froms] of removedBySource) {
    const tos = addedBySource.get(hash);
    if (froms.length === 1 && tos?.length === 1) pairs.set(froms[0]!, tos[0]!);
  }
  return new Map([...pairs].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

function agentChanges(
  before: Readonly<Record<string, LockedAgent>>,
  after: Readonly<Record<string, LockedAgent>>,
  renames: ReadonlyMap<string, string>,
  headTools: Readonly<Record<string, LockedTool>>,
): LockChange[] {
  const out: LockChange[] = [];
  const add = (kind: ChangeKind, impact: Impact, name: string, message: string, b: unknown, a: unknown) =>
    out.push({
      kind,
      impact,
      subject: { type: "agent", name },
      path: null,
      message,
      details: [],
      before: b ?? null,
      after: a ?? null,
    });
  const withEffect = (tool: string) => (headTools[tool] ? `${quote(tool)} (${headTools[tool]!.effect})` : quote(tool));
  for (const name of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const b = before[name];
    const a = after[name];
    if (!b && a) {
      add(
        "agent-added",
        "risky",
        name,
        `new agent with tool${a.tools.length === 1 ? "" : "s"} ${listWords(a.tools.map(withEffect)) || "(none)"}`,
        null,
        a,
      );
      continue;
    }
    if (b && !a) {
      add("agent-removed", "breaking", name, "agent removed: hosts that run it break", b, null);
      continue;
    }
    if (!b || !a) continue;
    if (b.module !== a.module || b.export !== a.export)
      add(
        "agent-moved",
        "info",
        name,
        `now defined by export ${a.export} of ${a.module} (was ${b.export} of ${b.module})`,
        `${b.module}#${b.export}`,
        `${a.module}#${a.export}`,
      );
    if (b.description !== a.description)
      add("agent-description", "info", name, "description changed", b.description, a.description);
    const was = b.tools.map((t) => renames.get(t) ?? t);
    const gained = a.tools.filter((t) => !was.includes(t));
    const lost = was.filter((t) => !a.tools.includes(t));
    if (gained.length > 0)
      add("agent-tool-added", "risky", name, `can now call ${listWords(gained.map(withEffect))}`, b.tools, a.tools);
    if (lost.length > 0)
      add("agent-tool-removed", "breaking", name, `can no longer call ${listWords(lost.map(quote))}`, b.tools, a.tools);
    const { module: _m1, export: _e1, description: _d1, tools: _t1, ...restB } = b;
    const { module: _m2, export: _e2, description: _d2, tools: _t2, ...restA } = a;
    if (!sameJson(restB, restA))
      add(
        "unclassified",
        "unclassified",
        name,
        "agent settings changed: changed (unclassified), review them in the lock",
        b,
        a,
      );
  }
  return out;
}

/**
 * The SDK every tool imports changed (cave upgraded, or its source edited): like a tool whose contract is unchanged
 * and whose staged source moved, it is information, with the files that changed; each tool's own entry says the same.
 */
function sdkChange(before: LockedSdk, after: LockedSdk): LockChange {
  const files = [...new Set([...Object.keys(before.files), ...Object.keys(after.files)])].sort();
  const details = files.flatMap((file) => {
    const b = before.files[file];
    const a = after.files[file];
    if (b === a) return [];
    return [`${b === undefined ? "added" : a === undefined ? "removed" : "changed"}: ${file}`];
  });
  const ids = before.id === after.id ? before.id : `${before.id} → ${after.id}`;
  const message = `the SDK module changed (${ids}): ${details.length} file${details.length === 1 ? "" : "s"} of its source graph`;
  return {
    kind: "implementation",
    impact: "info",
    subject: { type: "lock", name: null },
    path: null,
    message,
    details,
    before: before.sha256,
    after: after.sha256,
  };
}

/** Lock-wide facts: version, build folder, and any other top-level key (not those derived from the tools' entries, whose changes are the tools'). */
function lockChanges(before: CaveLock, after: CaveLock): LockChange[] {
  const out: LockChange[] = [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !["integrity", "tools", "agents", "toolHashes", "osLayerTools"].includes(k))
    .sort();
  for (const key of keys) {
    const b = (before as unknown as Record<string, unknown>)[key];
    const a = (after as unknown as Record<string, unknown>)[key];
    if (sameJson(b, a)) continue;
    if (key === "sdk" && b !== null && a !== null && b !== undefined && a !== undefined) {
      out.push(sdkChange(b as LockedSdk, a as LockedSdk));
      continue;
    }
    const known = key === "lockfileVersion" || key === "buildDir";
    out.push({
      kind: known ? "lock" : "unclassified",
      impact: known ? "info" : "unclassified",
      subject: { type: "lock", name: null },
      path: null,
      message: known
        ? `${key} ${JSON.stringify(b)} → ${JSON.stringify(a)}`
        : `${key} changed: changed (unclassified), review it in the lock`,
      details: [],
      before: b ?? null,
      after: a ?? null,
    });
  }
  return out;
}

const SUBJECT_ORDER = { lock: 0, agent: 1, tool: 2 } as const;
const KIND_ORDER: readonly ChangeKind[] = [
  "lock",
  "agent-added",
  "agent-removed",
  "agent-tool-added",
  "agent-tool-removed",
  "agent-moved",
  "agent-description",
  "tool-added",
  "tool-removed",
  "tool-renamed",
  "effect",
  "sandbox-mode",
  "sandbox-env-added",
  "sandbox-env-removed",
  "sandbox-fs-added",
  "sandbox-fs-removed",
  "sandbox-addons",
  "egress-host-added",
  "secret-added",
  "secret-host-added",
  "secret-changed",
  "egress-host-removed",
  "secret-removed",
  "secret-host-removed",
  "nested-tool-added",
  "nested-tool-removed",
  "allow-repeat",
  "input-schema",
  "input-validation",
  "output-schema",
  "output-validation",
  "opaque-semantics",
  "timeout",
  "result-policy",
  "result-plan",
  "description",
  "tool-moved",
  "implementation",
  "unclassified",
];

/** Review order: section (risky first), then subject, then kind, then path; stable for equal keys. */
function sortChanges(changes: readonly LockChange[]): LockChange[] {
  const key = (c: LockChange): string[] => [
    String(SECTIONS.indexOf(sectionOf(c.impact))),
    String(SUBJECT_ORDER[c.subject.type]),
    c.subject.name ?? "",
    String(KIND_ORDER.indexOf(c.kind)).padStart(3, "0"),
    c.path ?? "",
  ];
  return [...changes].sort((x, y) => {
    const a = key(x);
    const b = key(y);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  });
}
