// The realm guard (compiler/evaluate/realm-guard.ts) decides whether an evaluation child may import another module
// after one: each route by which a module could reach the next is seen, and a module that leaves nothing behind is
// not. Each case runs in a fresh Node process (the guard wraps process-wide functions), against the built guard.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/golden.js";

const GUARD = pathToFileURL(join(REPO_ROOT, "dist", "compiler", "evaluate", "realm-guard.js")).href;
const PROTOCOL = pathToFileURL(join(REPO_ROOT, "dist", "compiler", "evaluate", "protocol.js")).href;

/** What the guard says after `code` ran (as a module's top level would) and its pending work had 200 ms to finish. */
function verdict(code: string): string | null {
  const script = `
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { createRealmGuard } = await import(${JSON.stringify(GUARD)});
const { PRELOADED_BUILTINS } = await import(${JSON.stringify(PROTOCOL)});
for (const name of PRELOADED_BUILTINS) require("node:" + name); // as the evaluation child does
const now = performance.now.bind(performance); // loads perf_hooks, as the evaluation child does before its guard
const loadList = process.moduleLoadList;
const roots = loadList.filter((e) => e.startsWith("NativeModule ") && !e.startsWith("NativeModule internal/")).map((e) => require("node:" + e.slice(13)));
const guard = createRealmGuard(roots, loadList);
await (async () => { ${code} })();
const turn = () => new Promise((resolve) => guard.untracked(() => setImmediate(resolve)));
for (const until = now() + 200; guard.pending() > 0 && now() < until; ) await turn();
const said = guard.changed();
process.stdout.write(JSON.stringify(said));
process.exit(0);
`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "--eval", script], { encoding: "utf8" })) as
    | string
    | null;
}

describe("the realm guard", () => {
  it("says nothing changed after code that leaves nothing behind (work that finished, objects of its own)", () => {
    expect(
      verdict(
        `const list = [3, 1, 2].map((x) => x * 2).sort(); globalThis.structuredClone({ list }); await new Promise((r) => setTimeout(r, 5)); await require("node:fs/promises").readFile(${JSON.stringify(join(REPO_ROOT, "package.json"))});`,
      ),
    ).toBeNull();
  });

  it.each([
    [
      "a property added to a builtin prototype",
      "Array.prototype.extra = 1;",
      "a realm object gained or lost a property",
    ],
    [
      "a builtin method replaced",
      "const map = Array.prototype.map; Array.prototype.map = function (...a) { return map.apply(this, a); };",
      "a realm object's property changed",
    ],
    [
      "a builtin replaced and put back in another order",
      "const m = Array.prototype.map; delete Array.prototype.map; Array.prototype.map = m;",
      "a realm object gained or lost a property",
    ],
    [
      "a builtin module's function replaced",
      'require("node:querystring").escape = (x) => x;',
      "a realm object's property changed",
    ],
    ["a global added", "globalThis.later = () => 1;", "a realm object gained or lost a property"],
    ["an environment variable set", 'process.env.CAVE_GUARD_TEST = "1";', "a realm object gained or lost a property"],
    [
      "a prototype swapped",
      "Object.setPrototypeOf(Error.prototype, null);",
      "a realm object's prototype or extensibility changed",
    ],
    [
      "an object made non-extensible",
      "Object.preventExtensions(Math);",
      "a realm object's prototype or extensibility changed",
    ],
    ["a listener added to process", 'process.on("warning", () => undefined);', "a realm object"],
  ])("sees %s", (_what, code, reason) => {
    expect(verdict(code)).toContain(reason);
  });

  it.each([
    ["an unref'd timer", "setTimeout(() => undefined, 10_000).unref();", "work was left to run later (Timeout)"],
    ["an interval", "setInterval(() => undefined, 10);", "work was left to run later (Timeout)"],
    [
      "a message port left open",
      "const { port1 } = new MessageChannel(); port1.on('message', () => undefined); port1.unref();",
      "work was left to run later (MESSAGEPORT, MESSAGEPORT)",
    ],
  ])("sees %s left to run later", (_what, code, reason) => {
    expect(verdict(code)).toBe(reason);
  });

  it.each([
    ["async_hooks.createHook", 'require("node:async_hooks").createHook({ init() {} }).enable();'],
    ["async_hooks.createHook", 'const { createHook } = await import("node:async_hooks"); createHook({ init() {} });'],
    [
      "diagnostics_channel.subscribe",
      'require("node:diagnostics_channel").subscribe("http.client.request.start", () => undefined);',
    ],
    [
      "a diagnostics channel's subscribe",
      'require("node:diagnostics_channel").channel("x").subscribe(() => undefined);',
    ],
    ["process.setUncaughtExceptionCaptureCallback", "process.setUncaughtExceptionCaptureCallback(() => undefined);"],
    ["a finalization registry's register", "new FinalizationRegistry(() => undefined).register({}, 1);"],
  ])("sees %s called (a callback kept in Node's internal state)", (name, code) => {
    expect(verdict(code)).toBe(
      `${name} was called: it keeps a callback or setting where the next module would meet it`,
    );
  });

  it("sees a process-wide setting changed behind an accessor, and a builtin module loaded for the first time", () => {
    expect(verdict('require("node:events").defaultMaxListeners = 50;')).toBe("a process-wide setting changed");
    expect(verdict("require('node:util').inspect.defaultOptions = { depth: 0 };")).toBe(
      "a realm object's property changed",
    );
    expect(verdict('require("node:http2");')).toBe("a builtin module was loaded (http2)");
  });
});
