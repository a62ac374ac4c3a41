import { describe, expect, it } from "vitest";
import { snapshotJson } from "../../runtime/pipeline/json-data.js";
import { canonicalJson, hashJson } from "../../src/contract/hash.js";

describe("snapshotJson", () => {
  it("copies JSON data and hashes its canonical form", () => {
    const value = { b: [1, "two", null, true, { c: -0.5 }], a: "é" };
    const snapshot = snapshotJson(value, 1_000);
    expect(snapshot.ok).toBe(true);
    if (!snapshot.ok) return;
    expect(snapshot.value).toEqual(value);
    expect(snapshot.value).not.toBe(value);
    expect(snapshot.sha256).toBe(hashJson(value));
    expect(snapshot.bytes).toBe(Buffer.byteLength(canonicalJson(value)));
  });

  it("accepts shared (non-cyclic) references and null-prototype objects", () => {
    const shared = { x: 1 };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { y: 2 });
    expect(snapshotJson({ a: shared, b: shared, bare }, 1_000)).toMatchObject({
      ok: true,
      value: { a: { x: 1 }, b: { x: 1 }, bare: { y: 2 } },
    });
  });

  it.each([
    [[1, , 3], "undefined", "/1"],
    [{ a: Infinity }, "a non-finite number (Infinity)", "/a"],
    [{ k: Symbol("v") }, "a Symbol", "/k"],
    [{ m: new Map() }, "an instance of Map", "/m"],
    [{ b: Buffer.from("x") }, "an instance of Buffer", "/b"],
    [{ "a/b": { "c~d": () => 1 } }, "a function", "/a~1b/c~0d"],
  ])("refuses %j as %s at %s", (value, what, path) => {
    expect(snapshotJson(value, 1_000)).toEqual({ ok: false, problem: { kind: "not-data", what, path } });
  });

  it("takes own enumerable string keys as the data: Symbol keys and non-enumerable properties are neither copied nor hashed", () => {
    const tagged: Record<string | symbol, unknown> = { b: 1, a: { [Symbol("brand")]: "meta", x: [1] } };
    tagged[Symbol("k")] = () => "never read";
    Object.defineProperty(tagged, "hidden", { value: 2, enumerable: false });
    const snapshot = snapshotJson(tagged, 1_000);
    if (!snapshot.ok) throw new Error(`refused: ${JSON.stringify(snapshot.problem)}`);
    expect(snapshot.value).toEqual({ b: 1, a: { x: [1] } });
    expect(Reflect.ownKeys(snapshot.value as object)).toEqual(["b", "a"]);
    expect(Reflect.ownKeys((snapshot.value as { a: object }).a)).toEqual(["x"]);
    expect(snapshot.text).toBe('{"a":{"x":[1]},"b":1}');
    expect(JSON.parse(snapshot.text)).toEqual(JSON.parse(JSON.stringify(tagged)));
    expect(snapshot.sha256).toBe(hashJson({ a: { x: [1] }, b: 1 }));
  });

  it("stops at the cap while walking, before serialising", () => {
    const result = snapshotJson({ big: "x".repeat(5_000) }, 1_000);
    expect(result).toMatchObject({ ok: false, problem: { kind: "too-large" } });
  });

  it("keeps the text and hash of the value as it was, however the copy is changed before they are read", () => {
    const value = { b: [{ y: 1, x: [2] }], a: { c: "é" } };
    const expected = canonicalJson(value);
    const snapshot = snapshotJson(value, 1_000);
    if (!snapshot.ok) throw new Error("refused");
    const copy = snapshot.value as { b: Array<{ y: number; x: number[] }>; a: Record<string, unknown> };
    copy.b[0]!.x.push(3);
    copy.b[0]!.y = 2;
    copy.a.d = true;
    copy.b.push({ y: 0, x: [] });
    expect(snapshot.text).toBe(expected);
    expect(snapshot.sha256).toBe(hashJson(value));
    expect(snapshot.bytes).toBe(Buffer.byteLength(expected));
  });

  it("measures the cap exactly whether or not the walk's count alone proves a value fits", () => {
    // 200 control characters: counted as 202 units, written as 1,202 bytes (each escaped as \u0001).
    const escaped = "\u0001".repeat(200);
    expect(snapshotJson(escaped, 1_202)).toMatchObject({ ok: true, bytes: 1_202 });
    expect(snapshotJson(escaped, 1_201)).toMatchObject({ ok: false, problem: { kind: "too-large", bytes: 1_202 } });
    // The largest text a counted unit can stand for: 24 bytes per number.
    const numbers = Array.from({ length: 10 }, () => -Number.MAX_VALUE);
    const text = canonicalJson(numbers);
    expect(snapshotJson(numbers, text.length)).toMatchObject({ ok: true, bytes: text.length });
    expect(snapshotJson(numbers, text.length - 1)).toMatchObject({ ok: false, problem: { kind: "too-large" } });
    expect(snapshotJson(escaped, 24 * 202)).toMatchObject({ ok: true, bytes: 1_202 });
  });

  it("measures the exact cap in UTF-8 bytes of the canonical text", () => {
    // "é" is 2 bytes: ["éé"] is 2 + 4 + 2 = 8 bytes although it is 6 characters.
    expect(snapshotJson(["éé"], 8).ok).toBe(true);
    expect(snapshotJson(["éé"], 7)).toMatchObject({ ok: false, problem: { kind: "too-large", bytes: 8 } });
  });
});
