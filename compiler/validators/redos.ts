import { createRequire } from "node:module";
import type { Diagnostics, Parameters } from "recheck";

/**
 * Whether a regular expression can take super-linear time in a backtracking engine (V8's, which runs
 * every `pattern` and `patternProperties` key of a precompiled validator in the host): checked with
 * recheck (makenowjust-labs/recheck), a maintained ReDoS checker, in its pure JavaScript build, so a
 * build needs no Java, no native binary and no network.
 *
 * Deterministic and fast: only the automaton checker runs, with no time limit; it decides exactly for
 * the regular expressions it supports. What it does not support (backreferences, lookaround, automata
 * too large to build) is refused as unproven rather than handed to recheck's fuzzer: the fuzzer's
 * verdict depends on time limits (so on the machine and its load), and without them it ran for minutes
 * on one pattern. Nothing unproven runs in the host.
 */
export type Verdict = { readonly linear: true } | { readonly linear: false; readonly why: string };

const AUTOMATON: Parameters = { checker: "automaton", timeout: null };

type CheckSync = (source: string, flags: string, params?: Parameters) => Diagnostics;
let checkSync: CheckSync | undefined;
const verdicts = new Map<string, Verdict>();

/** The verdict for `source` run with the u flag (as Ajv runs patterns); remembered per thread. */
export function redosVerdict(source: string): Verdict {
  let verdict = verdicts.get(source);
  if (verdict === undefined) {
    verdict = decide(source);
    verdicts.set(source, verdict);
  }
  return verdict;
}

function decide(source: string): Verdict {
  // Loaded on the first pattern only: the checker is ~3 MB of JavaScript.
  checkSync ??= (createRequire(import.meta.url)("recheck/lib/browser.js") as { checkSync: CheckSync }).checkSync;
  const result = checkSync(source, "u", AUTOMATON);
  if (result.status === "safe") return { linear: true };
  if (result.status === "vulnerable") {
    const attack =
      result.attack.pattern.length > 100 ? `${result.attack.pattern.slice(0, 100)}…` : result.attack.pattern;
    return {
      linear: false,
      why: `it backtracks in ${result.complexity.summary} time (an input such as ${attack} stalls it)`,
    };
  }
  const cause =
    result.error.kind === "unsupported"
      ? "it uses a backreference, lookaround or a construct the checker cannot analyse"
      : `the checker failed: ${result.error.kind}`;
  return { linear: false, why: `it could not be proven to run in linear time (${cause})` };
}
