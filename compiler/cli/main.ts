import { processIO, safeIO, type CliIO } from "./io.js";
import { own } from "../../src/contract/dictionary.js";
import { buildCommand, BUILD_USAGE } from "./commands/build.js";
import { diffCommand, DIFF_USAGE } from "./commands/diff.js";
import { verifyCommand, VERIFY_USAGE } from "./commands/verify.js";
import { explainCommand, EXPLAIN_USAGE } from "./commands/explain.js";
import { callCommand, CALL_USAGE } from "./commands/call.js";
import { runsCommand, RUNS_USAGE } from "./commands/runs.js";

type Command = { run: (args: readonly string[], io: CliIO) => Promise<number>; usage: string; summary: string };

/** The command table: one entry a command, each implemented in its own file under commands/. */
export const COMMANDS: Record<string, Command> = {
  build: { run: buildCommand, usage: BUILD_USAGE, summary: "analyse, stage and lock the project's tools (cave.lock + .cave/)" },
  diff: { run: diffCommand, usage: DIFF_USAGE, summary: "explain what changed between two locks (files or git revisions), for review" },
  verify: { run: verifyCommand, usage: VERIFY_USAGE, summary: "check a lock and its build folder as a deploy would" },
  explain: { run: explainCommand, usage: EXPLAIN_USAGE, summary: "everything the lock says about one tool, in plain words" },
  call: { run: callCommand, usage: CALL_USAGE, summary: "run one tool call through the runtime, exactly as locked, and print the outcome" },
  runs: { run: runsCommand, usage: RUNS_USAGE, summary: "what a durable-run journal holds: runs, calls, outcomes, effects in doubt, locks; expire old runs" },
};

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}\n      ${c.usage}`);
  return `usage: cave <command> [options]\n\n${rows.join("\n")}\n`;
}

/** Runs one CLI invocation; returns the exit code. */
export async function main(argv: readonly string[], unsafe: CliIO): Promise<number> {
  const io = safeIO(unsafe);
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(helpText());
    return name === undefined ? 1 : 0;
  }
  if (name === "--version") {
    io.stdout("0.1.0\n");
    return 0;
  }
  const command = own(COMMANDS, name);
  if (!command) {
    io.stderr(`cave: unknown command "${name}"\n${helpText()}`);
    return 1;
  }
  return command.run(rest, io);
}
