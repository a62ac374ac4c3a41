import { describeScope } from "../../src/contract/fs-scopes.js";
import { canonicalJson } from "../../src/contract/hash.js";
import { scopeChanges } from "./scope-changes.js";
import type { LockedTool, ResultPlan } from "../../src/contract/lock.js";
import {
  EFFECT_MEANING,
  boundLabel,
  describeRequested,
  describeTimeout,
  effectConsequences,
  isEscalation,
  listWords,
  lockedPlan,
  packageOf,
  planLabel,
  quote,
  requestedLabel,
  transformLabel,
} from "./describe.js";
import { schemaSideChanges } from "./schema-changes.js";
import type { ChangeKind, Impact, LockChange } from "./types.js";

/** Keys of a locked tool that this file compares; any other key that differs is reported as unclassified. */
const HANDLED = new Set([
  "module",
  "export",
  "description",
  "effect",
  "speculable",
  "retryable",
  "timeoutMs",
  "allowRepeat",
  "sandbox",
  "nestedTools",
  "source",
  "input",
  "output",
  "result",
]);

/**
 * Every change between two versions of one tool. `renames` maps base names to head names, so a
 * nested tool that was only renamed is not reported as removed and added.
 */
export function toolChanges(
  name: string,
  before: LockedTool,
  after: LockedTool,
  renames: ReadonlyMap<string, string>,
): LockChange[] {
  const out: LockChange[] = [];
  const add = (kind: ChangeKind, impact: Impact, message: string, b: unknown, a: unknown, details: string[] = []) =>
    out.push({
      kind,
      impact,
      subject: { type: "tool", name },
      path: null,
      message,
      details,
      before: b ?? null,
      after: a ?? null,
    });

  if (before.module !== after.module || before.export !== after.export) {
    add(
      "tool-moved",
      "info",
      `now defined by export ${after.export} of ${after.module} (was ${before.export} of ${before.module})`,
      `${before.module}#${before.export}`,
      `${after.module}#${after.export}`,
    );
  }
  if (before.description !== after.description) {
    add(
      "description",
      "info",
      "description changed (the model reads it to decide when to call the tool)",
      before.description,
      after.description,
      [`before: ${before.description}`, `after:  ${after.description}`],
    );
  }
  if (before.effect !== after.effect) {
    const escalation = isEscalation(before.effect, after.effect);
    const b = effectConsequences(before.effect);
    const a = effectConsequences(after.effect);
    const now = (["speculable", "retryable", "fixture"] as const).filter((k) => b[k] !== a[k]).map((k) => a[k]);
    const consequence = now.length > 0 ? `: now ${listWords(now)}` : "";
    const label = escalation ? "effect escalated" : "effect";
    add(
      "effect",
      escalation ? "risky" : "info",
      `${label} ${before.effect} → ${after.effect} (${EFFECT_MEANING[after.effect]})${consequence}`,
      before.effect,
      after.effect,
    );
  } else if (before.speculable !== after.speculable || before.retryable !== after.retryable) {
    add(
      "unclassified",
      "unclassified",
      "speculable/retryable changed without an effect change",
      { speculable: before.speculable, retryable: before.retryable },
      { speculable: after.speculable, retryable: after.retryable },
    );
  }
  if (before.timeoutMs !== after.timeoutMs) {
    add(
      "timeout",
      "info",
      `timeout ${describeTimeout(before.timeoutMs)} → ${describeTimeout(after.timeoutMs)}`,
      before.timeoutMs,
      after.timeoutMs,
    );
  }
  if (before.allowRepeat !== after.allowRepeat) {
    if (after.allowRepeat)
      add(
        "allow-repeat",
        "risky",
        "identical repeated calls are allowed now (allowRepeat: true): the repeat guard no longer stops the same call twice in a run",
        false,
        true,
      );
    else add("allow-repeat", "info", "identical repeated calls are stopped now (allowRepeat: false)", true, false);
  }
  out.push(...sandboxChanges(name, before, after));
  out.push(...nestedChanges(name, before, after, renames));
  out.push(...schemaSideChanges(name, "input", before.input, after.input));
  out.push(...schemaSideChanges(name, "output", before.output, after.output));
  out.push(...resultChanges(name, before, after));
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (HANDLED.has(key)) continue;
    const b = (before as unknown as Record<string, unknown>)[key];
    const a = (after as unknown as Record<string, unknown>)[key];
    if (!sameJson(b, a))
      add("unclassified", "unclassified", `${key} changed: changed (unclassified), review it in the lock`, b, a);
  }
  // Every other field was compared above, so nothing found there means the contract is unchanged.
  out.push(...implementationChanges(name, before, after, out.length === 0));
  return out;
}

function sandboxChanges(name: string, before: LockedTool, after: LockedTool): LockChange[] {
  const out: LockChange[] = [];
  const subject = { type: "tool" as const, name };
  const b = before.sandbox;
  const a = after.sandbox;
  if (b.mode !== a.mode) {
    out.push(
      a.mode === "none"
        ? {
            kind: "sandbox-mode",
            impact: "risky",
            subject,
            path: null,
            message:
              'sandbox turned off (sandbox: "none"): it now runs in the host process, with the host\'s environment, files and network',
            details: [],
            before: b.mode,
            after: a.mode,
          }
        : {
            kind: "sandbox-mode",
            impact: "info",
            subject,
            path: null,
            message: 'sandbox turned on (sandbox: "required"): it now runs in the restricted child process',
            details: [],
            before: b.mode,
            after: a.mode,
          },
    );
  }
  const added = a.env.filter((e) => !b.env.includes(e));
  const removed = b.env.filter((e) => !a.env.includes(e));
  if (added.length > 0) {
    out.push({
      kind: "sandbox-env-added",
      impact: "risky",
      subject,
      path: null,
      message: `may now receive environment variable${added.length === 1 ? "" : "s"} ${listWords(added)}`,
      details: [],
      before: b.env,
      after: a.env,
    });
  }
  // Out of the sandbox the tool sees the host's whole environment: the emptied list is not a loss.
  if (removed.length > 0 && a.mode !== "none") {
    out.push({
      kind: "sandbox-env-removed",
      impact: "info",
      subject,
      path: null,
      message: `no longer receives environment variable${removed.length === 1 ? "" : "s"} ${listWords(removed)}`,
      details: [],
      before: b.env,
      after: a.env,
    });
  }
  // Native addons run machine code the permission model does not see (only under the OS layer): a power.
  if ((b.addons === true) !== (a.addons === true)) {
    out.push(
      a.addons === true
        ? {
            kind: "sandbox-addons",
            impact: "risky",
            subject,
            path: null,
            message:
              "may now load native addons (sandboxProfile.addons: true): machine code Node's permission model does not see, run only under the sandbox's OS layer",
            details: [],
            before: false,
            after: true,
          }
        : {
            kind: "sandbox-addons",
            impact: "info",
            subject,
            path: null,
            message: "no longer loads native addons",
            details: [],
            before: true,
            after: false,
          },
    );
  }
  out.push(...scopeChanges(name, b, a));
  out.push(...fsChanges(subject, b, a));
  const { mode: _bm, env: _be, egress: _bg, secrets: _bs, fs: _bf, addons: _ba, ...restB } = b;
  const { mode: _am, env: _ae, egress: _ag, secrets: _as, fs: _af, addons: _aa, ...restA } = a;
  if (!sameJson(restB, restA))
    out.push({
      kind: "unclassified",
      impact: "unclassified",
      subject,
      path: null,
      message: "sandbox profile changed: changed (unclassified), review it in the lock",
      details: [],
      before: b,
      after: a,
    });
  return out;
}

/**
 * Filesystem scopes, one change per scope: each added scope is a new power (risky), each removed one a reduction.
 * A scope that moves from read to write is both: write added, read removed.
 */
function fsChanges(
  subject: { type: "tool"; name: string },
  b: LockedTool["sandbox"],
  a: LockedTool["sandbox"],
): LockChange[] {
  const out: LockChange[] = [];
  for (const kind of ["write", "read"] as const) {
    const was = b.fs?.[kind] ?? [];
    const now = a.fs?.[kind] ?? [];
    for (const scope of now.filter((s) => !was.includes(s))) {
      out.push({
        kind: "sandbox-fs-added",
        impact: "risky",
        subject,
        path: scope,
        message: `may now ${kind === "write" ? "write (and read)" : "read"} ${describeScope(scope)}`,
        details: [],
        before: b.fs ?? null,
        after: a.fs ?? null,
      });
    }
    for (const scope of was.filter((s) => !now.includes(s))) {
      out.push({
        kind: "sandbox-fs-removed",
        impact: "info",
        subject,
        path: scope,
        message: `no longer ${kind === "write" ? "writes" : "reads"} ${describeScope(scope)}`,
        details: [],
        before: b.fs ?? null,
        after: a.fs ?? null,
      });
    }
  }
  return out;
}

function nestedChanges(
  name: string,
  before: LockedTool,
  after: LockedTool,
  renames: ReadonlyMap<string, string>,
): LockChange[] {
  const subject = { type: "tool" as const, name };
  const was = before.nestedTools.map((n) => renames.get(n) ?? n);
  const added = after.nestedTools.filter((n) => !was.includes(n));
  const removed = was.filter((n) => !after.nestedTools.includes(n));
  const out: LockChange[] = [];
  if (added.length > 0)
    out.push({
      kind: "nested-tool-added",
      impact: "risky",
      subject,
      path: null,
      message: `may now call nested tool${added.length === 1 ? "" : "s"} ${listWords(added.map(quote))} through context.call`,
      details: [],
      before: before.nestedTools,
      after: after.nestedTools,
    });
  if (removed.length > 0)
    out.push({
      kind: "nested-tool-removed",
      impact: "info",
      subject,
      path: null,
      message: `can no longer call nested tool${removed.length === 1 ? "" : "s"} ${listWords(removed.map(quote))}`,
      details: [],
      before: before.nestedTools,
      after: after.nestedTools,
    });
  return out;
}

function resultChanges(name: string, before: LockedTool, after: LockedTool): LockChange[] {
  const subject = { type: "tool" as const, name };
  const out: LockChange[] = [];
  if (!sameJson(before.result.requested, after.result.requested)) {
    out.push({
      kind: "result-policy",
      impact: "info",
      subject,
      path: null,
      message: `result policy ${requestedLabel(before.result.requested)} → ${requestedLabel(after.result.requested)}: ${describeRequested(after.result.requested)}`,
      details: [],
      before: before.result.requested,
      after: after.result.requested,
    });
  }
  out.push(...planChanges(name, lockedPlan(before), lockedPlan(after)));
  const rest = (t: LockedTool) =>
    Object.fromEntries(Object.entries(t.result).filter(([k]) => k !== "requested" && k !== "plan"));
  if (!sameJson(rest(before), rest(after)))
    out.push({
      kind: "unclassified",
      impact: "unclassified",
      subject,
      path: null,
      message: "result settings changed: changed (unclassified), review them in the lock",
      details: [],
      before: before.result,
      after: after.result,
    });
  return out;
}

/** What the model sees of results: the plan's strategy and limits first, then what moved under the same plan. */
function planChanges(name: string, before: ResultPlan | undefined, after: ResultPlan | undefined): LockChange[] {
  if (sameJson(before, after)) return [];
  const change = (message: string, details: string[] = []): LockChange => ({
    kind: "result-plan",
    impact: "info",
    subject: { type: "tool", name },
    path: null,
    message,
    details,
    before: before ?? null,
    after: after ?? null,
  });
  if (before === undefined || after === undefined)
    return [
      change(after ? `result plan added: ${planLabel(after)}` : "result plan removed", after ? [after.reason] : []),
    ];
  if (planLabel(before) !== planLabel(after)) {
    return [
      change(`result plan ${planLabel(before)} → ${planLabel(after)}`, [
        `before: ${before.reason}`,
        `after:  ${after.reason}`,
      ]),
    ];
  }
  const moved: string[] = [];
  if (!sameJson(before.bound, after.bound))
    moved.push(`size bound ${boundLabel(before.bound)} → ${boundLabel(after.bound)}`);
  if (before.transform && after.transform && before.transform.sha256 !== after.transform.sha256)
    moved.push(`transform ${transformLabel(after.transform)} code changed (${after.transform.module})`);
  if (!sameJson(before.tokenizer, after.tokenizer))
    moved.push(`tokenizer ${tokenizerLabel(before.tokenizer)} → ${tokenizerLabel(after.tokenizer)}`);
  if (before.reason !== after.reason) moved.push(`reason: ${after.reason}`);
  if (moved.length === 0) moved.push("plan fields changed");
  return [change(`result plan still ${planLabel(after)}, but ${moved[0]}`, moved.slice(1))];
}

function tokenizerLabel(t: ResultPlan["tokenizer"]): string {
  return t === null ? "none" : `${t.id}@${t.version}`;
}

/** Source hashes moved: list the changed files of the staged graph. */
function implementationChanges(
  name: string,
  before: LockedTool,
  after: LockedTool,
  onlyImplementation: boolean,
): LockChange[] {
  if (before.source.sha256 === after.source.sha256 && sameHashes(before.source.files, after.source.files)) return [];
  const files = [...new Set([...Object.keys(before.source.files), ...Object.keys(after.source.files)])].sort();
  // The project's files one by one; a dependency's files counted per package ("changed: 12 files of zod").
  const details: string[] = [];
  const byPackage = new Map<string, number>();
  let count = 0;
  for (const file of files) {
    const b = before.source.files[file];
    const a = after.source.files[file];
    if (b === a) continue;
    count++;
    const status = b === undefined ? "added" : a === undefined ? "removed" : "changed";
    const pkg = packageOf(file);
    if (pkg === null) details.push(`${status}: ${file}`);
    else byPackage.set(`${status}\0${pkg}`, (byPackage.get(`${status}\0${pkg}`) ?? 0) + 1);
  }
  for (const [key, n] of [...byPackage].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const [status, pkg] = key.split("\0");
    details.push(`${status}: ${n} file${n === 1 ? "" : "s"} of package ${pkg}`);
  }
  // With other changes listed, the tool's own module changing says nothing new.
  const ownOnly = files.every(
    (file) => before.source.files[file] === after.source.files[file] || file === before.module || file === after.module,
  );
  if (!onlyImplementation && count > 0 && ownOnly) return [];
  const what =
    count === 0
      ? "staged bundle changed, no source file did (a bundler or compiler change)"
      : `${count} file${count === 1 ? "" : "s"} of its staged source graph changed`;
  const message = onlyImplementation
    ? `implementation changed, contract unchanged: ${what}`
    : `source changed: ${what}`;
  return [
    {
      kind: "implementation",
      impact: "info",
      subject: { type: "tool", name },
      path: null,
      message,
      details,
      before: before.source.sha256,
      after: after.source.sha256,
    },
  ];
}

/** Two path → hash maps with the same entries (cheaper than canonical JSON on graphs of hundreds of files). */
function sameHashes(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => a[k] === b[k]);
}

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}
