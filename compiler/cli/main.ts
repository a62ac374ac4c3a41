import { safeIO, type CliIO } from "./io.js";
import { own } from "../../src/contract/dictionary.js";
import {
  BUILD_USAGE,
  CALL_USAGE,
  DIFF_USAGE,
  EXPLAIN_USAGE,
  RUNS_USAGE,
  SERVE_USAGE,
  VERIFY_USAGE,
  VERSION_USAGE,
} from "./usage-lines.js";

type Run = (args: readonly string[], io: CliIO) => Promise<number>;
type Command = { load: () => Promise<Run>; usage: string; summary: string };

/**
 * The command table: one entry a command, each implemented in its own file under commands/ and loaded only
 * when it runs. `cave serve` is started by an MCP host that waits for it: it must not load the compiler
 * (TypeScript, esbuild, the globber) that only build, diff and verify use.
 */
export const COMMANDS: Record<string, Command> = {
  build: {
    load: async () => (await import("./commands/build.js")).buildCommand,
    usage: BUILD_USAGE,
    summary: "analyse, stage and lock the project's tools (cave.lock + .cave/)",
  },
  diff: {
    load: async () => (await import("./commands/diff.js")).diffCommand,
    usage: DIFF_USAGE,
    summary: "explain what changed between two locks (files or git revisions), for review",
  },
  verify: {
    load: async () => (await import("./commands/verify.js")).verifyCommand,
    usage: VERIFY_USAGE,
    summary: "check a lock and its build folder as a deploy would",
  },
  explain: {
    load: async () => (await import("./commands/explain.js")).explainCommand,
    usage: EXPLAIN_USAGE,
    summary: "everything the lock says about one tool, in plain words",
  },
  call: {
    load: async () => (await import("./commands/call.js")).callCommand,
    usage: CALL_USAGE,
    summary: "run one tool call through the runtime, exactly as locked, and print the outcome",
  },
  serve: {
    load: async () => (await import("./commands/serve.js")).serveCommand,
    usage: SERVE_USAGE,
    summary: "serve the locked tools to MCP clients (stdio, or Streamable HTTP with --http)",
  },
  runs: {
    load: async () => (await import("./commands/runs.js")).runsCommand,
    usage: RUNS_USAGE,
    summary: "what a durable-run journal holds: runs, calls, outcomes, effects in doubt, locks; expire old runs",
  },
};

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}\n      ${c.usage}`);
  return `usage: cave <command> [options]\n       ${VERSION_USAGE}\n\n${rows.join("\n")}\n`;
}

/** Runs one CLI invocation; returns the exit code. */
export async function main(argv: readonly string[], unsafe: CliIO): Promise<number> {
  const io = safeIO(unsafe);
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(helpText());
    return name === undefined ? 1 : 0;
  }
  if (name === "--version" || name === "-v") {
    // Loaded only here: the CLI entry statically loads nothing of the compiler (test/cli/static-graph.test.ts).
    const { packageVersion } = await import("../package-root.js");
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  const command = own(COMMANDS, name);
  if (!command) {
    io.stderr(`cave: unknown command "${name}"\n${helpText()}`);
    return 1;
  }
  return (await command.load())(rest, io);
}
