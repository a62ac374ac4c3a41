// The repeat guard's index (runtime/run/repeat-index.ts) buckets calls by a structural hash of their arguments
// (runtime/canonical/structural-hash.ts) and tells calls in one bucket apart by their canonical text.
import { describe, expect, it } from "vitest";
import { structuralHash } from "../../runtime/canonical/structural-hash.js";
import { snapshotJson, type DataSnapshot } from "../../runtime/pipeline/json-data.js";
import { LIVE_CALLS, RepeatIndex } from "../../runtime/run/repeat-index.js";
import { canonicalJson } from "../../src/contract/hash.js";

function snapshot(value: unknown): DataSnapshot {
  const taken = snapshotJson(value, 1 << 20);
  if (!taken.ok) throw new Error("not data");
  return taken;
}
const hashOf = (value: unknown) => snapshot(value).repeatHash;

/** Two arguments of the form { q: "s<i>" } with one structural hash and different texts: found by counting up. */
function collidingPair(): [unknown, unknown] {
  const seen = new Map<number, number>();
  for (let i = 0; ; i++) {
    const hash = structuralHash({ q: `s${i}` });
    const earlier = seen.get(hash);
    if (earlier !== undefined) return [{ q: `s${earlier}` }, { q: `s${i}` }];
    seen.set(hash, i);
  }
}

describe("structuralHash", () => {
  it("is the same for values with the same canonical text: key order, -0 and 0, 1.0 and 1, nesting", () => {
    const pairs: [unknown, unknown][] = [
      [
        { a: 1, b: { c: [1, 2], d: "x" } },
        { b: { d: "x", c: [1, 2] }, a: 1.0 },
      ],
      [{ n: -0 }, { n: 0 }],
      [
        { "10": 1, "9": 2, b: 3, a: 4 },
        { a: 4, b: 3, "9": 2, "10": 1 },
      ],
      [[{ z: null, y: true }], [{ y: true, z: null }]],
      [{ big: 1e21 }, { big: 1000000000000000000000 }],
    ];
    for (const [a, b] of pairs) {
      expect(canonicalJson(a)).toBe(canonicalJson(b));
      expect(hashOf(a)).toBe(hashOf(b));
    }
  });

  it("tells kinds and shapes apart", () => {
    const values: unknown[] = [
      "1",
      1,
      true,
      false,
      null,
      [],
      {},
      [[1]],
      [1],
      { a: { b: 1 }, c: 2 },
      { a: { b: 1, c: 2 } },
      ["a", "b"],
      ["ab"],
      { a: "" },
      { "": "a" },
      0.1,
      0.2,
    ];
    const hashes = values.map(hashOf);
    expect(new Set(hashes).size).toBe(values.length);
  });

  it("is the same whether the snapshot's text was written before or after", () => {
    const value = { a: [1, { b: "c" }], d: -0 };
    const textFirst = snapshot(value);
    void textFirst.text;
    expect(textFirst.repeatHash).toBe(hashOf(value));
    const hashFirst = snapshot(value);
    const hash = hashFirst.repeatHash;
    expect(hashFirst.text).toBe(canonicalJson(value));
    expect(hash).toBe(textFirst.repeatHash);
  });
});

describe("RepeatIndex", () => {
  /** The callId of the call claim() names: the earlier one for a repeat, else `callId` (now remembered). */
  const claimed = (index: RepeatIndex, tool: string, value: unknown, callId: string) =>
    index.claim(tool, snapshot(value), callId).callId;

  it("finds a call with canonically equal arguments; keeps two calls of one bucket apart by their text", () => {
    const [a, b] = collidingPair();
    expect(hashOf(a)).toBe(hashOf(b));
    expect(canonicalJson(a)).not.toBe(canonicalJson(b));
    const index = new RepeatIndex();
    expect(claimed(index, "t", a, "call-a")).toBe("call-a");
    expect(claimed(index, "t", b, "call-b")).toBe("call-b");
    expect(claimed(index, "t", a, "call-a2")).toBe("call-a");
    expect(claimed(index, "t", b, "call-b2")).toBe("call-b");
    // Another tool with the same arguments is another call.
    expect(claimed(index, "u", a, "call-u")).toBe("call-u");
  });

  it("releases only the entry given, leaving the other of its bucket", () => {
    const [a, b] = collidingPair();
    const index = new RepeatIndex();
    const argsA = snapshot(a);
    const entryA = index.claim("t", argsA, "call-a");
    index.claim("t", snapshot(b), "call-b");
    index.release("t", argsA, entryA);
    expect(claimed(index, "t", b, "call-b2")).toBe("call-b");
    expect(claimed(index, "t", a, "call-a2")).toBe("call-a2");
  });

  it("past LIVE_CALLS calls, remembers every call by SHA-256, those held before included; releases still work", () => {
    const index = new RepeatIndex();
    const args = (i: number) => snapshot({ i, tag: "x" });
    const entries = Array.from({ length: LIVE_CALLS + 8 }, (_, i) => index.claim("t", args(i), `call-${i}`));
    expect(entries.map((entry, i) => entry.callId === `call-${i}`)).not.toContain(false);
    // One held with its arguments before the turn and one after, released by the entries claim() gave.
    index.release("t", args(0), entries[0]!);
    index.release("t", args(LIVE_CALLS + 1), entries[LIVE_CALLS + 1]!);
    for (let i = 0; i < LIVE_CALLS + 8; i++) {
      const expected = i === 0 || i === LIVE_CALLS + 1 ? "again" : `call-${i}`;
      expect(claimed(index, "t", { tag: "x", i }, "again")).toBe(expected);
    }
  });

  it("keeps large arguments and a journal's records by SHA-256, and finds them from live calls", () => {
    const index = new RepeatIndex();
    const large = { s: "x".repeat(70_000) };
    const entry = index.claim("t", snapshot(large), "call-large");
    expect(claimed(index, "t", { s: "x".repeat(70_000) }, "again")).toBe("call-large");
    index.release("t", snapshot(large), entry);
    expect(claimed(index, "t", large, "after-release")).toBe("after-release");

    const journaled = new RepeatIndex();
    const recorded = snapshot({ q: "recorded" });
    journaled.addHashed("t", recorded.sha256, "call-journal");
    journaled.releaseRecorded("t", recorded.sha256, "another-call");
    expect(claimed(journaled, "t", { q: "recorded" }, "again")).toBe("call-journal");
    journaled.releaseRecorded("t", recorded.sha256, "call-journal");
    expect(claimed(journaled, "t", { q: "recorded" }, "again")).toBe("again");
  });
});
