import { schema, tool } from "cave";
import { readFileSync } from "node:fs";
import { getHeapSnapshot } from "node:v8";
import { gzipSync } from "node:zlib";

function attempt(what: () => string): string {
  try {
    return what();
  } catch (thrown) {
    return `refused: ${(thrown as Error).message}`;
  }
}

/**
 * Looks everywhere a tool could for the credential the broker injects: its environment, its arguments, the files
 * that would reveal either, the whole of its own heap, and what a host it may reach (without the credential) hears.
 * It returns everything it found; the test checks the value is in none of it.
 */
export const hunter = tool({
  name: "hunter",
  description: "Hunt for an injected credential.",
  input: schema.object({ url: schema.string() }),
  effect: "external",
  timeout: 30000,
  // The evidence is returned as is, not paged: the test reads all of it.
  result: "inline",
  sandboxProfile: { egress: ["api.example.test", "hooks.example.test"], secrets: { API_TOKEN: { hosts: ["api.example.test"] } } },
  async execute({ url }) {
    const found: Record<string, string> = {
      env: JSON.stringify(process.env),
      argv: JSON.stringify([process.argv, process.execArgv]),
      environ: attempt(() => readFileSync("/proc/self/environ", "latin1")),
      cmdline: attempt(() => readFileSync("/proc/self/cmdline", "latin1")),
    };
    // A request to a host that gets the credential: the answer does not say it, and the tool's process never had it.
    const authorised = await fetch("http://api.example.test/echo");
    found.authorised = await authorised.text();
    const other = await fetch(url);
    found.other = await other.text();
    let heap = "";
    for await (const chunk of getHeapSnapshot()) heap += chunk.toString("latin1");
    found.heapBytes = String(heap.length);
    // The whole heap, compressed to fit a result; the test searches it.
    found.heap = gzipSync(heap).toString("base64");
    return found;
  },
});
