// One option reader (src/contract/options.ts) behind every option object: the same problem found the same way,
// rendered by each layer into its own error type.
import { describe, expect, it } from "vitest";
import { mustBe, readOptions, rule, TOOL_DEFAULTS } from "../../src/contract/options.js";
import { DEFAULT_TIMEOUT_MS } from "../../src/contract/names.js";
import { assertEvaluateOptions, checkBuildOptions } from "../../compiler/options.js";
import { checkOptions } from "../../runtime/options/option-checks.js";
import { tool } from "../../src/index.js";

const RULES = { root: mustBe.nonEmptyPathString, cache: mustBe.boolean, limits: null };

describe("readOptions", () => {
  it("refuses what is not an object, arrays included", () => {
    for (const value of [null, 3, "x", [], undefined])
      expect(readOptions(value, RULES)).toEqual([{ kind: "not-object" }]);
  });

  it("names each unknown key with a did-you-mean hint, then each ill-typed value, and nothing for a good object", () => {
    expect(readOptions({ root: "a", cache: true, limits: { anything: 1 } }, RULES)).toEqual([]);
    expect(readOptions({ cahce: true, root: "", cache: "yes" }, RULES, "build.")).toEqual([
      { kind: "unknown", key: "build.cahce", hint: 'Did you mean "cache"? Known options: root, cache, limits.' },
      { kind: "invalid", key: "build.root", value: "", mustBe: "must be a non-empty path string", hint: undefined },
      { kind: "invalid", key: "build.cache", value: "yes", mustBe: "must be a boolean", hint: undefined },
    ]);
  });

  it("reads inherited and prototype-looking keys as unknown, never as rules", () => {
    const value = JSON.parse('{"__proto__": 1, "toString": 2}') as unknown;
    expect(readOptions(value, RULES).map((problem) => problem.kind === "unknown" && problem.key)).toEqual([
      "__proto__",
      "toString",
    ]);
  });

  it("takes a bare key list when other checks own the values", () => {
    expect(readOptions({ a: 1, zzzz: 2 }, ["a", "b"])).toEqual([
      { kind: "unknown", key: "zzzz", hint: "Known options: a, b." },
    ]);
  });

  it("keeps a rule's own words and hint", () => {
    const port = rule(
      (value) => Number.isInteger(value) && (value as number) > 0 && (value as number) < 65536,
      "a port number",
      "Pass 8080.",
    );
    expect(readOptions({ port: 0 }, { port })).toEqual([
      { kind: "invalid", key: "port", value: 0, mustBe: "must be a port number", hint: "Pass 8080." },
    ]);
  });
});

describe("each layer renders the one reader's problems", () => {
  it("build(): CAVE2007 diagnostics, collected, never thrown; evaluate(), called by build() only: a TypeError", () => {
    expect(checkBuildOptions({ rot: "." }).map((d) => [d.code, d.message, d.hint])).toEqual([
      [
        "CAVE2007",
        'unknown build option "rot"',
        'Did you mean "root"? Known options: root, write, config, evaluateTimeoutMs, cache, review.',
      ],
    ]);
    expect(() => assertEvaluateOptions({ timeoutMs: -1 })).toThrow(
      new TypeError("evaluate() option timeoutMs must be a positive integer of milliseconds"),
    );
    expect(() => assertEvaluateOptions({ a: 1, b: 2 })).toThrow(
      new TypeError("evaluate() does not know the option(s) a, b"),
    );
    expect(() => assertEvaluateOptions(null)).toThrow(new TypeError("evaluate() options must be an object"));
    expect(() => assertEvaluateOptions({ timeoutMs: 5 })).not.toThrow();
  });

  it("the runtime: OPTIONS_INVALID naming the option and what was given", () => {
    expect(() => checkOptions({ cache: 1 }, "createThing() options", RULES)).toThrow(
      expect.objectContaining({ code: "OPTIONS_INVALID", message: "cache must be a boolean (got 1)" }),
    );
    expect(() => checkOptions({ x: 1 }, "limits", RULES)).toThrow(
      'unknown option "limits.x" in limits; known keys: root, cache, limits',
    );
  });

  it("the SDK: CAVE1007 for an unknown tool option", () => {
    expect(() =>
      tool({ name: "t", description: "d", effect: "read", timout: 5, execute: async () => null } as never),
    ).toThrow(/CAVE1007.*unknown option "timout"/s);
  });
});

it("tool() and the compiler's static reading fill in the same defaults, from one place", () => {
  const t = tool({ name: "t", description: "d", effect: "read", execute: async () => null });
  expect(TOOL_DEFAULTS.timeout).toBe(DEFAULT_TIMEOUT_MS);
  expect({
    timeout: t.timeout,
    result: t.result,
    allowRepeat: t.allowRepeat,
    sandbox: t.sandbox,
    addons: t.sandboxProfile.addons,
  }).toEqual({ ...TOOL_DEFAULTS });
});
