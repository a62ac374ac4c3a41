import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { journalPath, openJournal } from "../../../runtime/journal/open.js";
import { configuredJournal } from "../../../runtime/journal/setting.js";
import type { Journal, RecordedCall, RunSummary } from "../../../runtime/journal/types.js";
import { stableJson } from "../../diff/stable-json.js";
import { styler, type CliIO } from "../io.js";
import { usageError } from "../usage.js";

import { RUNS_USAGE } from "../usage-lines.js";
import { thrownText } from "../../../src/contract/thrown-message.mjs";

export { RUNS_USAGE };

const DURATION = /^([1-9][0-9]{0,8})(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `cave runs`: what a durable-run journal holds (docs/durable.md). `list`: every run with its calls,
 * calls in doubt and locks; `show RUN`: each call of a run in order, its outcome, whether its effect is
 * in doubt and the lock it ran under; `expire`: retention. Exit 0, or 1 with a CAVE92xx line.
 */
export async function runsCommand(args: readonly string[], io: CliIO): Promise<number> {
  let values: {
    root?: string;
    journal?: string;
    json?: boolean;
    "older-than"?: string;
    "include-unfinished"?: boolean;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        root: { type: "string" },
        journal: { type: "string" },
        json: { type: "boolean" },
        "older-than": { type: "string" },
        "include-unfinished": { type: "boolean" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (thrown) {
    return usageError(io, thrown, RUNS_USAGE);
  }
  const [sub, runId, ...extra] = positionals;
  const shapeProblem =
    sub === "list"
      ? runId !== undefined
        ? "list takes no run"
        : undefined
      : sub === "show"
        ? runId === undefined || extra.length > 0
          ? "show takes one run id"
          : undefined
        : sub === "expire"
          ? runId !== undefined
            ? "expire takes no run"
            : values["older-than"] === undefined
              ? "expire needs --older-than DURATION (e.g. 7d, 12h)"
              : !DURATION.test(values["older-than"])
                ? `--older-than ${JSON.stringify(values["older-than"])} is not a duration: a whole number and ms, s, m, h or d (e.g. 7d)`
                : undefined
          : `unknown subcommand ${JSON.stringify(sub ?? "")}: use list, show RUN or expire`;
  if (shapeProblem !== undefined) return usageError(io, new Error(`cave runs: ${shapeProblem}`), RUNS_USAGE);
  if (sub !== "expire" && (values["older-than"] !== undefined || values["include-unfinished"] !== undefined))
    return usageError(io, new Error("cave runs: --older-than and --include-unfinished belong to expire"), RUNS_USAGE);

  const root = resolve(io.cwd, values.root ?? ".");
  const style = styler(io);
  const fail = (code: string, message: string) => {
    if (values.json) io.stdout(stableJson({ ok: false, code, message }));
    else io.stderr(`${style("red", "error")} ${code}: ${message}\n`);
    return 1;
  };
  let setting: string;
  try {
    setting = values.journal ?? configuredJournal(root, io.env)?.setting ?? "sqlite";
  } catch (thrown) {
    return fail("CAVE9221", `the journal setting could not be read (${thrownText(thrown)})`);
  }
  const path = journalPath(setting, root);
  // Reading must not create a journal: a missing file is reported, not made.
  if (path !== null && path !== ":memory:" && !existsSync(path)) {
    const shown = relative(root, path);
    const where = shown.startsWith("..") || isAbsolute(shown) ? "" : ` (${shown.split(sep).join("/")} under the root)`;
    return fail(
      "CAVE9220",
      `no journal at ${JSON.stringify(setting)}${where}; pass --journal with the setting the runtime uses, or set CAVE_JOURNAL`,
    );
  }
  let journal: Journal;
  try {
    journal = await openJournal(setting, root, io.env);
  } catch (thrown) {
    return fail("CAVE9221", thrownText(thrown));
  }
  try {
    if (sub === "list") return list(await journal.listRuns(), io, values.json === true);
    if (sub === "show") {
      const run = await journal.readRun(runId!);
      if (run === null)
        return fail(
          "CAVE9222",
          `the journal holds no run ${JSON.stringify(runId)}; cave runs list shows the runs it holds`,
        );
      return show(run.runId, run.finishedAt, run.calls, io, values.json === true);
    }
    const match = DURATION.exec(values["older-than"]!)!;
    const cutoff = Date.now() - Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    const expired = await journal.expire({
      finishedBefore: cutoff,
      includeUnfinished: values["include-unfinished"] === true,
    });
    if (values.json) io.stdout(stableJson({ ok: true, expired }));
    else
      io.stdout(
        `cave runs: expired ${expired.length} run${expired.length === 1 ? "" : "s"}${expired.length === 0 ? "" : `: ${expired.join(", ")}`}\n`,
      );
    return 0;
  } catch (thrown) {
    return fail("CAVE9221", thrownText(thrown));
  } finally {
    await journal.close();
  }
}

function list(runs: readonly RunSummary[], io: CliIO, json: boolean): number {
  if (json) {
    io.stdout(stableJson({ ok: true, runs }));
    return 0;
  }
  if (runs.length === 0) {
    io.stdout("cave runs: the journal holds no runs\n");
    return 0;
  }
  for (const run of runs) {
    const state = run.finishedAt !== null ? "finished" : "open";
    const doubt = run.inDoubt === 0 ? "" : `, ${run.inDoubt} in doubt`;
    io.stdout(
      `${run.runId}  ${state}  ${run.calls} call${run.calls === 1 ? "" : "s"}${doubt}  last ${new Date(run.updatedAt).toISOString()}  lock ${run.locks.map(short).join(", ") || "-"}\n`,
    );
  }
  return 0;
}

function show(
  runId: string,
  finishedAt: number | null,
  calls: readonly RecordedCall[],
  io: CliIO,
  json: boolean,
): number {
  const rows = calls.map((call, index) => {
    const receipt =
      call.completion === null
        ? null
        : (JSON.parse(call.completion.outcome) as { receipt: { outcome: string; effectUnknown: boolean } }).receipt;
    const inDoubt = call.completion === null;
    return {
      seq: index + 1,
      tool: call.intent.tool,
      effect: call.intent.effect,
      callId: call.intent.callId,
      parentId: call.intent.parentId,
      occurrence: call.intent.occurrence,
      lockIntegrity: call.intent.lockIntegrity,
      outcome: receipt === null ? null : receipt.outcome,
      inDoubt,
      // In doubt: a call with an intent and no completion whose tool is not read-only, or one whose receipt says so.
      effectUnknown: inDoubt ? call.intent.effect !== "read" : receipt!.effectUnknown,
      dispatched: call.completion === null ? null : call.completion.dispatched,
    };
  });
  if (json) {
    io.stdout(stableJson({ ok: true, runId, finishedAt, calls: rows }));
    return 0;
  }
  io.stdout(
    `run ${runId}: ${rows.length} call${rows.length === 1 ? "" : "s"}, ${finishedAt === null ? "open" : `finished ${new Date(finishedAt).toISOString()}`}\n`,
  );
  for (const row of rows) {
    const outcome = row.inDoubt ? "IN DOUBT (started, never finished)" : row.outcome!;
    const nested = row.parentId === null ? "" : `  (nested in ${row.parentId})`;
    io.stdout(
      `${String(row.seq).padStart(4)}  ${row.tool} [${row.effect}]  ${outcome}${row.effectUnknown ? "  effect unknown" : ""}  lock ${short(row.lockIntegrity)}  call ${row.callId}${nested}\n`,
    );
  }
  return 0;
}

/** A lock integrity shortened for a table ("sha256-0123456789ab…"); the JSON output has it whole. */
function short(lock: string | null): string {
  return lock === null ? "(none)" : lock.length > 19 ? `${lock.slice(0, 19)}…` : lock;
}
