import { describeFs } from "../../src/contract/fs-scopes.js";
import type { CaveLock, LockedSchema, LockedTool } from "../../src/contract/lock.js";
import { describeEntry } from "../diff/scope-changes.js";
import {
  EFFECT_MEANING,
  boundLabel,
  describeRequested,
  describeTimeout,
  effectConsequences,
  listWords,
  lockedPlan,
  planLabel,
  quote,
  sourceGroups,
  transformLabel,
} from "../diff/describe.js";

/**
 * Everything the lock says about one tool, in plain words, in the order a reviewer asks: what it
 * may do, what the model sees of its results and why, how it is validated, where it comes from.
 * The tool must be in the lock.
 */
export function explainTool(lock: CaveLock, name: string): string {
  const tool = lock.tools[name];
  if (!tool) throw new Error(`internal: explainTool called with a tool that is not locked: ${JSON.stringify(name)}`);
  const lines: string[] = [
    `tool ${quote(name)}: export ${tool.export} of ${tool.module}`,
    `  ${tool.description.replace(/\s*[\r\n]+\s*/g, " ")}`,
  ];

  const e = effectConsequences(tool.effect);
  const agents = Object.keys(lock.agents)
    .filter((a) => lock.agents[a]!.tools.includes(name))
    .sort();
  const composites = Object.keys(lock.tools)
    .filter((t) => lock.tools[t]!.nestedTools.includes(name))
    .sort();
  lines.push(
    "",
    "What it may do",
    `  effect: ${tool.effect}: ${EFFECT_MEANING[tool.effect]}. It is ${e.speculable.replace(/^may be/, "allowed to be")}, ${e.retryable}, and ${e.fixture}.`,
    `  timeout: ${describeTimeout(tool.timeoutMs)}; at the deadline the call fails with TIMEOUT and the tool's signal is aborted${tool.effect === "read" ? "" : " (its effect may or may not have happened)"}.`,
    tool.allowRepeat
      ? "  repeats: allowed (allowRepeat: true); the same call with the same arguments may run again in one run."
      : "  repeats: stopped; a second identical call (same arguments, in any key order) in one run gets REPEAT_STOPPED.",
    `  sandbox: ${describeSandbox(tool)}`,
    ...describeEgress(tool),
    ...describeAddons(tool),
    ...describeExternals(lock, tool),
    tool.nestedTools.length === 0
      ? "  nested tools: none; context.call refuses every tool."
      : `  nested tools: may call ${listWords(tool.nestedTools.map(quote))} through context.call, each through the same checks as a top-level call.`,
    `  used by: ${[...agents.map((a) => `agent ${quote(a)}`), ...composites.map((t) => `tool ${quote(t)} (nested)`)].join(", ") || "no agent or composite tool in this lock"}.`,
  );

  lines.push("", "What the model sees of its results", `  requested: ${describeRequested(tool.result.requested)}.`);
  const plan = lockedPlan(tool);
  if (plan !== undefined) {
    lines.push(`  planned: ${planLabel(plan)}.`, `  why: ${plan.reason}.`, `  size: ${boundLabel(plan.bound)}.`);
    if (plan.transform !== null)
      lines.push(
        `  transform: ${transformLabel(plan.transform)}, ${plan.transform.module} (${plan.transform.sha256}).`,
      );
    if (plan.tokenizer !== null) lines.push(`  tokens counted with ${plan.tokenizer.id}@${plan.tokenizer.version}.`);
  }
  if (tool.output === null)
    lines.push("  The result has no output schema: it is serialised as native JSON, unvalidated.");
  else
    lines.push(
      "  The result is validated before the model or a journal sees it; an invalid result becomes OUTPUT_INVALID and its value is withheld.",
    );

  lines.push(
    "",
    "How it is validated",
    `  input: ${describeSide(tool.input, "input")}`,
    `  output: ${describeSide(tool.output, "output")}`,
  );

  // The project's own files with their hashes; dependencies (hundreds of files) counted per package. --json lists all.
  const { own, packages } = sourceGroups(Object.keys(tool.source.files));
  lines.push(
    "",
    "Source",
    `  staged bundle: ${tool.source.bundle} (${tool.source.sha256})`,
    `  project files (${own.length}):`,
  );
  for (const file of own) lines.push(`    ${file} ${tool.source.files[file]}`);
  if (packages.length > 0) {
    const total = packages.reduce((n, [, count]) => n + count, 0);
    lines.push(
      `  dependencies (${total} file${total === 1 ? "" : "s"}): ${packages.map(([name, count]) => `${name} (${count})`).join(", ")}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function describeSandbox(tool: LockedTool): string {
  const env =
    tool.sandbox.env.length === 0
      ? "no environment variables"
      : `only the environment variable${tool.sandbox.env.length === 1 ? "" : "s"} ${listWords(tool.sandbox.env)}`;
  if (tool.sandbox.mode === "none")
    return `none: it runs in the host process, with the host's environment, files and network (the sandbox profile does not apply).`;
  const network =
    tool.sandbox.egress.length === 0 ? "network access is off" : "its only network is the host's egress broker (below)";
  const fs =
    tool.sandbox.fs === null
      ? "it can read and write no file but its own code"
      : `files: it ${describeFs(tool.sandbox.fs)}, and nothing else (enforced by the sandbox's OS layer: where it is not in use, the tool is refused)`;
  return `required: it runs in a restricted child process with ${env}; ${fs}; ${network}.`;
}

/** Scoped egress in plain words: each host it may reach, each credential and where it goes (never a value). */
function describeEgress(tool: LockedTool): string[] {
  const egress = tool.sandbox.egress;
  if (egress.length === 0 || tool.sandbox.mode === "none") return [];
  const lines = [
    "  egress: through the host's egress broker only (HTTP/1.1 from fetch, undici's global dispatcher or the http/https modules; needs the sandbox's OS layer), to:",
    ...egress.map((entry) => `    ${describeEntry(entry)}`),
    "    Every other host, a name resolving to a private or loopback address unless listed by that exact name, and HTTP/2, WebSocket or raw TCP are refused (NETWORK_REFUSED). Each request is recorded in the call's receipt (host, port, method, status, bytes, duration).",
  ];
  for (const [name, secret] of Object.entries(tool.sandbox.secrets)) {
    lines.push(
      `  secret ${name}: the broker sends it as header ${secret.header}: ${JSON.stringify(secret.format)} on requests to ${listWords(secret.hosts)} only; the tool's code never sees the value (it comes from the host's environment or the runtime's secrets provider).`,
    );
  }
  return lines;
}

/** The native-addons power in plain words: what it lets the code do and why it runs only under the OS layer. */
function describeAddons(tool: LockedTool): string[] {
  if (tool.sandbox.addons !== true) return [];
  if (tool.sandbox.mode === "none")
    return [
      "  native addons: allowed by its sandboxProfile (addons: true); it runs in the host process, where any addon loads anyway.",
    ];
  return [
    "  native addons: it may load native addons (sandboxProfile addons: true): machine code that Node's permission model does not see, so this tool runs only under the sandbox's OS layer (mounts and namespaces); where the OS layer is not in use, it is refused with OS_LAYER_REQUIRED.",
  ];
}

/**
 * The external packages a tool imports at run time (cave.config.json `external`): not bundled, so not in the
 * bundle's hash; what the lock pins instead (name, version, registry integrity) and what the runtime checks.
 */
function describeExternals(lock: CaveLock, tool: LockedTool): string[] {
  const paths = tool.source.externals ?? [];
  if (paths.length === 0) return [];
  const pins = lock.externals ?? {};
  const lines = [
    `  external packages (${paths.length}): not bundled; imported from the project's node_modules at run time, so their code is not in the staged bundle's hash. The lock pins each one's name, version and registry integrity (from package-lock.json):`,
  ];
  for (const path of paths) {
    const pin = pins[path];
    lines.push(
      pin === undefined
        ? `    ${path}: not pinned by this lock (the runtime refuses the tool: LOCK_INVALID)`
        : `    ${pin.name}@${pin.version} at ${path} (${pin.integrity})`,
    );
  }
  lines.push(
    "    Before the tool's first use the runtime refuses an installed version that differs from the lock (LOCK_MISMATCH); after cave verify --write-manifest on the deploy machine (cave.manifest.json) it also refuses any installed file that changed since. Native binaries differ by machine, so their bytes are pinned only by that manifest.",
  );
  return lines;
}

function describeSide(side: LockedSchema | null, which: "input" | "output"): string {
  if (side === null)
    return which === "input"
      ? "no schema: the arguments reach the tool unvalidated."
      : "no schema: native JSON serialisation, unvalidated.";
  const schema = side.sha256 === null ? "no JSON Schema is sent to providers" : `JSON Schema ${side.sha256}`;
  const v = side.validation;
  if (v.kind === "precompiled") return `precompiled validator ${v.module} (${v.sha256}); ${schema}.`;
  return `opaque ${v.vendor} validator, run from the staged bundle; semantics hash ${v.semanticsSHA256} (change it whenever the validator's behaviour changes); ${schema}.`;
}
