// Issue 11, item 8: a sandboxed tool's console output comes back with its outcome as a bounded per-call tail (`logs`):
// stdout and stderr in the order written, the last LOG_TAIL_BYTES with a note of what was left out, nothing of another
// call on the same warm child, and a tail on failures too.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { build } from "../../compiler/build.js";
import { LOG_TAIL_BYTES } from "../../runtime/sandbox/child/log-tail.mjs";
import { removeCopies, writeProject } from "../support/projects.js";
import { closeSandboxes, sandboxed } from "./support/runtime.js";

afterEach(closeSandboxes);
afterAll(removeCopies);

const TOOLS = `import { schema, tool } from "cave";

// Calls this process served: under the OS layer's pid namespace a pid does not tell processes apart, this does.
let served = 0;

export const chatty = tool({
  name: "chatty",
  description: "Writes to both streams in a known order, then answers or throws.",
  effect: "read",
  input: schema.object({ tag: schema.string(), bytes: schema.integer(), fail: schema.boolean(), later: schema.boolean(), wait: schema.optional(schema.integer()) }),
  async execute({ tag, bytes, fail, later, wait }) {
    console.log("log " + tag);
    console.error("error " + tag);
    process.stdout.write("stdout " + tag + "\\n");
    console.warn("warn " + tag);
    console.info("info " + tag);
    console.debug("debug " + tag);
    process.stderr.write("stderr " + tag + "\\n");
    if (bytes > 0) process.stdout.write("x".repeat(bytes - 4) + "end\\n");
    // Written after this call answered: it belongs to this call, never to the next one on the same child.
    if (later) setTimeout(() => console.log("late " + tag), 50);
    if (wait !== undefined) await new Promise((resolve) => setTimeout(resolve, wait));
    if (fail) throw new Error("failed " + tag);
    served += 1;
    return { tag, served };
  },
});

export const quiet = tool({
  name: "quiet",
  description: "Writes nothing.",
  effect: "read",
  input: schema.object({ wait: schema.integer() }),
  async execute({ wait }) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    return {};
  },
});
`;

const ORDERED = (tag: string) =>
  `log ${tag}\nerror ${tag}\nstdout ${tag}\nwarn ${tag}\ninfo ${tag}\ndebug ${tag}\nstderr ${tag}\n`;

async function project(): Promise<string> {
  const root = writeProject({ "tools/chatty.ts": TOOLS });
  expect((await build({ root })).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return root;
}

describe("a sandboxed call's logs", () => {
  it("hold stdout and stderr in the order written, on ok and failed outcomes; a call that wrote nothing has none", async () => {
    const { runtime } = await sandboxed(await project());
    const ok = await runtime.call("chatty", { tag: "a", bytes: 0, fail: false, later: false });
    expect(ok).toMatchObject({ ok: true, content: { tag: "a" }, logs: ORDERED("a") });
    const failed = await runtime.call("chatty", { tag: "b", bytes: 0, fail: true, later: false });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: "TOOL_ERROR", message: 'tool "chatty" failed: failed b' },
      logs: ORDERED("b"),
    });
    const quiet = await runtime.call("quiet", { wait: 0 });
    expect(quiet.ok).toBe(true);
    expect("logs" in quiet).toBe(false);
  });

  it("keep the last LOG_TAIL_BYTES, after a line saying how many bytes were left out", async () => {
    const { runtime } = await sandboxed(await project());
    // Over the 1 MiB pipe cap too: the tail is the end of what the tool wrote, not where the pipe's cap cut.
    const bytes = 2 * 1_048_576;
    const outcome = await runtime.call("chatty", { tag: "c", bytes, fail: false, later: false });
    expect(outcome.ok).toBe(true);
    const total = ORDERED("c").length + bytes;
    const note = `[cave: ${total - LOG_TAIL_BYTES} earlier bytes of output not shown]\n`;
    expect(outcome.logs).toBe(`${note}${"x".repeat(LOG_TAIL_BYTES - 4)}end\n`);
    expect(LOG_TAIL_BYTES).toBe(8192);
  });

  it("never carry output of another call of the same warm child, even what an earlier call writes later", async () => {
    const { runtime } = await sandboxed(await project());
    const run = runtime.startRun();
    const first = await run.call("chatty", { tag: "d", bytes: 0, fail: false, later: true });
    expect(first.logs).toBe(ORDERED("d"));
    // The first call's timer writes while this call waits, in the same child.
    const second = await run.call("chatty", { tag: "e", bytes: 0, fail: false, later: false, wait: 300 });
    expect(second.logs).toBe(ORDERED("e"));
    const third = await run.call("chatty", { tag: "f", bytes: 0, fail: false, later: false });
    expect(third.logs).toBe(ORDERED("f"));
    // One process answered all three.
    expect(
      [first, second, third].map((outcome) => (outcome.ok ? (outcome.content as { served: number }).served : 0)),
    ).toEqual([1, 2, 3]);
  });
});
