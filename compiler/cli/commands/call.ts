import { parseArgs } from "node:util";
import { stdoutToStderr } from "../stdout-to-stderr.js";
import { resolve } from "node:path";
import { createRuntime } from "../../../runtime/index.js";
import { RuntimeError } from "../../../runtime/errors.js";
import type { CallOutcome } from "../../../src/contract/outcome.js";

import { CALL_USAGE } from "../usage-lines.js";
import { thrownText } from "../../../src/contract/thrown-message.mjs";

export { CALL_USAGE };

interface CallIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * `cave call`: one call through the runtime, against the lock in --root (default: the current
 * directory), in host mode or with --fixture in fixture mode (read tools only). Arguments default to
 * {}. Prints the content (or, with --json, the whole outcome with its receipt) to stdout; a failed
 * call prints its code, message and mapped stack to stderr. A sandboxed tool's console output (the outcome's logs)
 * goes to stderr before that, never to stdout, where scripts parse the content; with --json it is the outcome's `logs`
 * field only. Exit 0 on ok, 1 on a failed call or bad usage.
 */
export async function callCommand(args: readonly string[], io: CallIO): Promise<number> {
  let values: { fixture?: boolean; root?: string; json?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { fixture: { type: "boolean" }, root: { type: "string" }, json: { type: "boolean" } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (thrown) {
    return usage(io, thrownText(thrown));
  }
  const [tool, json, ...extra] = positionals;
  if (tool === undefined) return usage(io, "missing the tool name");
  if (extra.length > 0)
    return usage(io, `unexpected argument ${JSON.stringify(extra[0])}; pass the arguments as one JSON text (quote it)`);
  let callArgs: unknown = {};
  if (json !== undefined) {
    try {
      callArgs = JSON.parse(json);
    } catch (thrown) {
      return usage(io, `the arguments are not valid JSON (${thrownText(thrown)})`);
    }
  }

  let outcome: CallOutcome;
  try {
    const runtime = await createRuntime({
      root: resolve(io.cwd, values.root ?? "."),
      mode: values.fixture ? "fixture" : "host",
    });
    try {
      outcome = await stdoutToStderr(() => runtime.call(tool, callArgs));
    } finally {
      runtime.close();
    }
  } catch (thrown) {
    if (!(thrown instanceof RuntimeError)) throw thrown;
    if (values.json)
      io.stdout(`${JSON.stringify({ ok: false, error: { code: thrown.code, message: thrown.message } }, null, 2)}\n`);
    else io.stderr(`cave call: ${thrown.code}: ${thrown.message}\n`);
    return 1;
  }

  if (values.json) {
    io.stdout(`${JSON.stringify(outcome, null, 2)}\n`);
    return outcome.ok ? 0 : 1;
  }
  if (outcome.logs !== undefined) io.stderr(logsBlock(tool, outcome.logs));
  if (outcome.ok) {
    io.stdout(`${JSON.stringify(outcome.content, null, 2)}\n`);
    return 0;
  }
  const stack = (outcome.error.stack ?? []).map((frame) => `    at ${frame}\n`).join("");
  io.stderr(
    `cave call: ${tool} failed: ${outcome.error.code}: ${outcome.error.message}\n${stack}(receipt ${outcome.receipt.callId})\n`,
  );
  return 1;
}

/** The tool's output tail, between two marker lines, ending with a newline whether or not the output did. */
function logsBlock(tool: string, logs: string): string {
  return `--- output of ${tool} (stdout and stderr) ---\n${logs}${logs.endsWith("\n") ? "" : "\n"}--- end of output ---\n`;
}

function usage(io: CallIO, message: string): number {
  io.stderr(`cave call: ${message}\nusage: ${CALL_USAGE}\n`);
  return 1;
}
