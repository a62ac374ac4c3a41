// Per call with the repeat guard, the contract's default for a tool without allowRepeat, against the same tool with
// allowRepeat (what per-call-peers.mjs measures), one build, one process, rounds alternating (the order flips each round),
// CPU time. A guarded tool cannot be called twice with the same arguments in one run, so on both sides every call is in
// a fresh run (runtime.startRun().call): the difference is the guard's cost.
// With --one-run, each round makes all its calls in one run instead, each with other arguments (the price varies): every
// call after the first to the tool is then keyed (its arguments' canonical text and hash), the guard's dearest case.
//   node repeat-guard.mjs [--one-run] [rounds] [iterations]      (after npm run build)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ARGS, buildNineProject, toolName } from "./nine-project.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
const oneRun = argv.includes("--one-run");
const [rounds, iterations] = argv.filter((arg) => arg !== "--one-run");
const ROUNDS = Number(rounds ?? 14);
const ITERATIONS = Number(iterations ?? 10_000);
const VARIED = Array.from({ length: ITERATIONS }, (_, i) => ({ ...ARGS, price: i + 0.5 }));
const roots = {
  guarded: mkdtempSync(join(tmpdir(), "cave-guard-")),
  allowRepeat: mkdtempSync(join(tmpdir(), "cave-allow-")),
};
try {
  buildNineProject(roots.guarded, repoRoot, 10, 10, false);
  buildNineProject(roots.allowRepeat, repoRoot, 10, 10, true);
  const { createRuntime } = await import(pathToFileURL(join(repoRoot, "dist/runtime/index.js")).href);
  const runtimes = {
    guarded: await createRuntime({ root: roots.guarded, mode: "host" }),
    allowRepeat: await createRuntime({ root: roots.allowRepeat, mode: "host" }),
  };
  const cpuUs = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const perCall = { guarded: [], allowRepeat: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? ["allowRepeat", "guarded"] : ["guarded", "allowRepeat"]) {
      const runtime = runtimes[side];
      const run = oneRun ? runtime.startRun({ budget: { maxCalls: ITERATIONS + 1 } }) : undefined;
      const start = cpuUs();
      for (let i = 0; i < ITERATIONS; i++) {
        const outcome = oneRun
          ? await run.call(toolName(0), VARIED[i])
          : await runtime.startRun().call(toolName(0), ARGS);
        if (!outcome.ok) throw new Error(`${side}: ${outcome.error.code}`);
      }
      perCall[side].push((cpuUs() - start) / ITERATIONS);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const guarded = median(perCall.guarded);
  const allowed = median(perCall.allowRepeat);
  console.log(
    `per call ${oneRun ? "in one run, arguments varied" : "in a fresh run"}, CPU, execute included: guarded ${guarded.toFixed(2)} us, allowRepeat ${allowed.toFixed(2)} us, the guard ${(guarded - allowed).toFixed(2)} us`,
  );
} finally {
  for (const root of Object.values(roots)) rmSync(root, { recursive: true, force: true });
}
