import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { inProcessAjv } from "../../compiler/validators/ajv-options.js";
import { linearUrl } from "../../compiler/validators/linear-keywords.js";
import { LINEAR_URL_SOURCE } from "../../compiler/validators/linear-url.js";
import { redosVerdict } from "../../compiler/validators/redos.js";

/**
 * Issue 13 item 2 (the model alone stalls the host): ajv-formats' `url` pattern backtracks in cubic time and Ajv's
 * uniqueItems compares every pair of objects. No time is measured here (bench/validation does that): the url
 * pattern is shown super-linear by the ReDoS checker, every expression of the replacement is proven linear by it,
 * the replacement answers exactly as the pattern on generated and adversarial strings, and uniqueItems finds
 * repeats by canonical text with Ajv's error.
 */
const { fullFormats } = createRequire(import.meta.url)("ajv-formats/dist/formats") as { fullFormats: Record<string, unknown> };
const URL_PATTERN = fullFormats.url as RegExp;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const PIECES = ["http://", "https://", "ftp://", "HTTP://", "@", ":", "/", ".", "-", "a", "b", "z", "1", "0", "9", "10", "127", "172.16", "192.168", "255", "com", "ex", " ", "\t", "\u00a1", "\u00e9", "\u2028", "\u3000", ":80", ":123456", "user:pw@", "%", "?", "#", "x.y"];

describe("the url format", () => {
  it("ajv-formats' pattern is super-linear; every expression of the linear url is proven linear (or at most 15 characters long)", () => {
    expect(redosVerdict(URL_PATTERN.source)).toMatchObject({ linear: false });
    const expressions = [...LINEAR_URL_SOURCE.matchAll(/const [A-Z0-9]+ = \/(.*)\/([a-z]*);/g)].map((m) => ({ source: m[1]!, flags: m[2]! }));
    expect(expressions.map((e) => e.source.slice(0, 12))).toEqual(["^(?:https?|f", "^(?:(?!(?:10", "^(?:(?:[a-z0", "\\s"]);
    for (const { source } of expressions) {
      // IPV4 has lookaheads the checker cannot analyse; it is only ever run on at most 15 characters.
      if (source.includes("(?!")) continue;
      expect(redosVerdict(source), source).toEqual({ linear: true });
    }
  }, 120_000);

  it("answers exactly as ajv-formats' url pattern on generated and adversarial strings", () => {
    const random = rng(13);
    const samples = ["http://example.com", "https://user:pw@example.com:8080/a b", "ftp://10.0.0.1", "http://1.2.3.4:80/x@y", "http://a@b@c.com", "http://a b@c.com", "http://xn--bcher-kva.ch", "http://ex.com:1/", "http://ex.com:123456", "http://-a.com", "http://a.b.c.d.e.fg/", "http://\u00e9.\u00e9\u00e9", "http://a.com/\u2028", "http://a\u3000b.com"];
    for (let i = 0; i < 20_000; i++) {
      const count = 1 + Math.floor(random() * 10);
      let text = random() < 0.8 ? PIECES[Math.floor(random() * 3)]! : "";
      for (let j = 0; j < count; j++) text += PIECES[Math.floor(random() * PIECES.length)]!;
      samples.push(text);
    }
    let valid = 0;
    for (const sample of samples) {
      const expected = URL_PATTERN.test(sample);
      expect(linearUrl(sample), JSON.stringify(sample)).toBe(expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(50);
  });
});

describe("uniqueItems", () => {
  it("finds deep-equal objects in any key order, keeps Ajv's error, and tells apart what JSON tells apart", () => {
    const validate = inProcessAjv().compile({ type: "array", uniqueItems: true });
    expect(validate([{ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 }])).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: "uniqueItems", params: { i: 1, j: 0 }, message: "must NOT have duplicate items (items ## 0 and 1 are identical)" });
    expect(validate([1, "1", true, "true", null, "null", [1], { "1": 1 }, [[1]], { a: "b" }, { a: '"b"' }, 0.5, "0.5"])).toBe(true);
    expect(validate([1, 2, 3, 2, 1])).toBe(false);
    expect(validate.errors?.[0]?.params).toEqual({ i: 4, j: 0 });
    expect(validate([{ a: 1 }, { a: 1, b: 2 }])).toBe(true);
  });
});
