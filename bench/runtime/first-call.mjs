// One cold "ready to first call" measurement in a fresh process (run by run.mjs; Node's own start-up is
// excluded and the same for both sides). Prints the elapsed milliseconds as JSON on stdout.
//   node first-call.mjs runtime <root> <repoRoot>   createRuntime() on the lock, then the first call
//   node first-call.mjs ajv <root> <repoRoot>       what an MCP client does today: compile every locked
//                                                    schema with Ajv at start-up, then validate, import and
//                                                    call the same tool and validate its output
//   node first-call.mjs aiSdk <root> <repoRoot> nine the Vercel AI SDK: import the project's tools written with
//                                                    zod and tool() (nine-project.mjs), validate the arguments
//                                                    as generateText does, execute
//   node first-call.mjs guarantees <root> <repoRoot> the floor of cave's guarantees (guarantee-floor.mjs): the lock's
//                                                    seal, the entry's pin, the files' hashes, a private copy, the
//                                                    arguments validated and hashed, and nothing else
//   node first-call.mjs direct <root> <repoRoot>    the floor of any runtime: import the tool's own locked bundle
//                                                    (its module, with every tool defined in it) and call its
//                                                    execute, with no check of anything
// With a fourth argument "nine" the project is nine-project.mjs's (its first tool and arguments).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { ARGS as NINE_ARGS, callAiSdkTool, toolName } from "./nine-project.mjs";

const [side, root, repoRoot, project] = process.argv.slice(2);
const nine = project === "nine";
const TOOL = nine ? toolName(0) : "tool_0";
const ARGS = nine ? NINE_ARGS : { customerId: "cus_abcdefgh", query0: "refund status" };
// Where the direct side finds its tool, read before the clock starts: what a runtime knows from its manifest.
const direct =
  side === "direct"
    ? (({ source, export: name }) => ({ bundle: source.bundle, export: name }))(
        JSON.parse(readFileSync(join(root, "cave.lock"), "utf8")).tools[TOOL],
      )
    : undefined;
// process.hrtime, not performance.now(): the first use of `performance` loads perf_hooks (~1-2 ms here), which the
// runtime's first call needs (its receipt's duration) and the other sides do not; a clock that loaded it before
// starting would take that cost off the runtime's side.
const start = process.hrtime.bigint();
let ok;

if (side === "runtime") {
  const { createRuntime, inProcessDispatcher } = await import(
    pathToFileURL(join(repoRoot, "dist/runtime/index.js")).href
  );
  // Generated tools keep the default sandbox: "required"; the in-process dispatcher stands in for the sandbox here.
  const runtime = await createRuntime({ root, mode: "host", dispatchers: { required: inProcessDispatcher } });
  const outcome = await runtime.call(TOOL, ARGS);
  ok = outcome.ok;
} else if (side === "guarantees") {
  const { callWithGuaranteesOnly } = await import("./guarantee-floor.mjs");
  const result = await callWithGuaranteesOnly(root, TOOL, ARGS);
  ok = typeof result === "object" && result !== null;
} else if (side === "direct") {
  const module = await import(pathToFileURL(join(root, direct.bundle)).href);
  const result = await module[direct.export].execute(ARGS, {
    signal: new AbortController().signal,
    callId: "x",
    call: async () => null,
  });
  ok = typeof result === "object" && result !== null;
} else if (side === "aiSdk") {
  const lib = await import(pathToFileURL(join(repoRoot, "node_modules/@ai-sdk/provider-utils/dist/index.mjs")).href);
  const { tools } = await import(pathToFileURL(join(root, "ai-sdk-tools.mjs")).href);
  ok = (await callAiSdkTool(lib, tools[TOOL], ARGS)).ok;
} else {
  const { Ajv } = await import(pathToFileURL(join(repoRoot, "node_modules/ajv/dist/ajv.js")).href);
  const addFormats = (await import(pathToFileURL(join(repoRoot, "node_modules/ajv-formats/dist/index.js")).href))
    .default.default;
  const lock = JSON.parse(readFileSync(join(root, "cave.lock"), "utf8"));
  const ajv = new Ajv({ strict: false });
  addFormats(ajv);
  const validators = {};
  for (const [name, tool] of Object.entries(lock.tools)) {
    validators[name] = { input: ajv.compile(tool.input.jsonSchema), output: ajv.compile(tool.output.jsonSchema) };
  }
  const tool = lock.tools[TOOL];
  const module = await import(pathToFileURL(join(root, tool.source.bundle)).href);
  const definition = module[tool.export];
  if (validators[TOOL].input(ARGS)) {
    const result = await definition.execute(ARGS, {
      signal: new AbortController().signal,
      callId: "x",
      call: async () => null,
    });
    ok = validators[TOOL].output(result);
  }
}
const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
if (ok !== true) throw new Error(`${side}: the first call did not succeed`);
process.stdout.write(JSON.stringify({ ms: elapsed }));
