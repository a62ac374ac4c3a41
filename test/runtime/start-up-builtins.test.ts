// Importing the runtime loads only what every runtime needs: node:child_process, node:http and node:https are loaded
// when a sandboxed call first needs them (runtime/sandbox/builtins.ts). On Node 22 and later an ES import of node:http
// reads its lazy WebSocket exports, which loads undici: 0.1-0.4 s of every start-up (bench/node-versions).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const runtimeUrl = new URL("../../dist/runtime/index.js", import.meta.url).href;
const featuresUrl = new URL("../../dist/runtime/sandbox/node-features.js", import.meta.url).href;
const root = fileURLToPath(new URL("../..", import.meta.url));

/** The built-ins of `names` that a fresh Node has loaded after running `script` (an ES module body). */
function loadedAfter(script: string, names: readonly string[]): string[] {
  const wanted = JSON.stringify(names.map((name) => `NativeModule ${name}`));
  const body = `${script}\nprocess.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => ${wanted}.includes(m))));`;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", body], { encoding: "utf8", cwd: root }),
  ) as string[];
}
const HEAVY = ["http", "https", "child_process", "internal/deps/undici/undici"];

describe("what importing the runtime loads", () => {
  it("neither node:http, node:https, node:child_process nor undici until a sandboxed call needs them", () => {
    expect(loadedAfter(`await import(${JSON.stringify(runtimeUrl)});`, HEAVY)).toEqual([]);
  });

  it("telling which Node this is does not load undici either (the WebSocket global is probed with in, never read)", () => {
    const script = `const { nodeFeatures } = await import(${JSON.stringify(featuresUrl)}); const features = nodeFeatures(); if (typeof features.webSocketGlobal !== "boolean") throw new Error("no answer");`;
    expect(loadedAfter(script, HEAVY)).toEqual([]);
  });
});
