// Adversarial table row 19 (../shared/sandbox.md): anything other than exactly one well-formed
// answer for the pending request is a protocol error; the child is killed; no second answer is ever
// delivered; the host lives. First byte by byte against the host's protocol state machine, then
// with a real tool writing into its channel.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallOutcome } from "../../runtime/index.js";
import { Exchange, type ExchangeEvent } from "../../runtime/sandbox/exchange.js";
import { encodeFrame, FrameReader, FrameTooLarge } from "../../runtime/sandbox/child/frames.mjs";
import { removeCopies } from "../support/projects.js";
import { builtProject } from "./support/project.js";
import { closeSandboxes, gone, sandboxed } from "./support/runtime.js";

const frame = (message: unknown) => encodeFrame(JSON.stringify(message));
const result = (id: string, value: unknown) => frame({ t: "result", id, value });

/** An exchange past start-up with request "r.1" pending. */
function busy(nested = true): Exchange {
  const exchange = new Exchange(1024);
  expect(exchange.receive(frame({ t: "ready" }))).toEqual([{ kind: "ready" }]);
  exchange.begin("r.1", nested);
  return exchange;
}

function kinds(events: ExchangeEvent[]): string[] {
  return events.map((e) => e.kind);
}

describe("framing", () => {
  it("cuts frames across and within chunks", () => {
    const reader = new FrameReader(100);
    const bytes = Buffer.concat([encodeFrame("one"), encodeFrame("twö"), encodeFrame("")]);
    const texts: string[] = [];
    for (let i = 0; i < bytes.length; i += 3) texts.push(...reader.push(bytes.subarray(i, i + 3)));
    expect(texts).toEqual(["one", "twö", ""]);
    expect(reader.pending).toBe(0);
  });

  it("refuses a frame over the cap from its header alone, before any of its body is kept", () => {
    const reader = new FrameReader(100);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(50_000_000);
    expect(() => reader.push(header)).toThrow(FrameTooLarge);
  });
});

describe("the host's protocol state machine", () => {
  it("delivers exactly one answer for the pending request", () => {
    const exchange = busy();
    expect(exchange.receive(result("r.1", { fine: true }))).toEqual([
      { kind: "answer", answer: { t: "result", id: "r.1", value: { fine: true }, logs: null } },
    ]);
    expect(exchange.phase).toBe("idle");
  });

  it("two answers in one read: a violation, and neither is delivered", () => {
    const exchange = busy();
    const events = exchange.receive(Buffer.concat([result("r.1", 1), result("r.1", 2)]));
    expect(events).toEqual([{ kind: "violation", why: "sent more after its answer" }]);
    expect(exchange.phase).toBe("closed");
  });

  it("an answer followed by part of another frame in the same read: a violation", () => {
    const exchange = busy();
    expect(kinds(exchange.receive(Buffer.concat([result("r.1", 1), result("r.1", 2).subarray(0, 6)])))).toEqual([
      "violation",
    ]);
  });

  it("a second answer in a later read: the first was delivered, the second is a violation and is never delivered", () => {
    const exchange = busy();
    expect(kinds(exchange.receive(result("r.1", 1)))).toEqual(["answer"]);
    expect(exchange.receive(result("r.1", 2))).toEqual([
      { kind: "violation", why: "sent result while no request was pending" },
    ]);
    expect(exchange.receive(result("r.1", 3))).toEqual([]);
  });

  it.each([
    [
      "an answer for another request id",
      () => result("r.2", 1),
      "sent result for a request that is not the pending one",
    ],
    ["garbage", () => Buffer.from("this is not a frame"), "sent a frame of 1952999795 bytes, over the 1024-byte cap"],
    ["a frame that is not JSON", () => encodeFrame("{{{"), "sent a frame that is not JSON"],
    [
      "a message of an unknown type",
      () => frame({ t: "surprise", id: "r.1" }),
      'sent an unknown message type "surprise"',
    ],
    ["a result without a value", () => frame({ t: "result", id: "r.1" }), "sent a result message without a value"],
    [
      "a fail with a code the child may not use",
      () => frame({ t: "fail", id: "r.1", code: "EFFECT_UNKNOWN", message: "" }),
      "sent a malformed fail message",
    ],
    ["a second ready", () => frame({ t: "ready" }), "sent ready for a request that is not the pending one"],
  ])("%s: a violation", (_what, bytes, why) => {
    const exchange = busy();
    expect(exchange.receive(bytes())).toEqual([{ kind: "violation", why }]);
  });

  it("a nested call is passed on during a run, and refused during a validation", () => {
    expect(busy(true).receive(frame({ t: "call", id: "r.1", sub: 1, name: "add", args: { a: 1 } }))).toEqual([
      { kind: "call", id: "r.1", sub: 1, name: "add", args: { a: 1 } },
    ]);
    expect(kinds(busy(false).receive(frame({ t: "call", id: "r.1", sub: 1, name: "add", args: {} })))).toEqual([
      "violation",
    ]);
  });

  it("anything before ready other than load-failed is a violation; load-failed closes the exchange", () => {
    expect(kinds(new Exchange(1024).receive(result("r.1", 1)))).toEqual(["violation"]);
    const failed = new Exchange(1024);
    expect(failed.receive(frame({ t: "load-failed", code: "LOCK_MISMATCH", message: "no" }))).toEqual([
      { kind: "load-failed", code: "LOCK_MISMATCH", message: "no" },
    ]);
    expect(failed.phase).toBe("closed");
  });
});

describe("row 19: a tool abusing its channel", () => {
  let root: string;
  beforeAll(async () => {
    root = await builtProject("sandbox");
  });
  afterAll(() => {
    closeSandboxes();
    removeCopies();
  });

  it.each([
    ["garbage", "over the"],
    ["not-json", "a frame that is not JSON"],
    ["other-call-id", "for a request that is not the pending one"],
    ["two-results", "for a request that is not the pending one"],
    ["huge-frame", "sent a frame of 2147483647 bytes"],
    ["close", "closed or broke its channel"],
  ])(
    "%s: PROTOCOL_ERROR, the child is killed, its genuine answer never delivered; the host lives and the next call works",
    async (how, why) => {
      const { runtime } = await sandboxed(root);
      const warm = (await runtime.call("add", { a: 0, b: 0 })) as CallOutcome & { content: { pid: number } };
      const outcome = await runtime.call("protocol_abuse", { how });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe("PROTOCOL_ERROR");
      expect(outcome.error.message).toContain(why);
      expect(outcome.error.message).toContain("nothing it sent was used");
      expect(JSON.stringify(outcome)).not.toContain("genuine");
      expect(await runtime.call("add", { a: 1, b: 2 })).toMatchObject({ ok: true, content: { sum: 3 } });
      expect(warm.ok).toBe(true);
    },
  );

  it("the killed child is gone", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { spare: false } });
    await runtime.call("protocol_abuse", { how: "garbage" });
    const before = sandbox.pids();
    expect(before).toEqual([]);
    // The child that broke the protocol was the only one; nothing of it remains.
    expect(sandbox.stats()).toMatchObject({ spawned: 1, live: 0 });
  });

  it("a dying child's pid disappears", async () => {
    const { runtime, sandbox } = await sandboxed(root, { sandbox: { spare: false } });
    const call = runtime.call("protocol_abuse", { how: "garbage" });
    const pid = await new Promise<number>((resolve) => {
      const poll = () => (sandbox.pids().length > 0 ? resolve(sandbox.pids()[0]!) : setTimeout(poll, 5));
      poll();
    });
    await call;
    expect(await gone(pid)).toBe(true);
  });
});
