import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { inProcessAjv } from "../../compiler/validators/ajv-options.js";
import {
  linearDateTimes,
  linearRegex,
  linearUriTemplate,
  linearUris,
  linearUrl,
} from "../../compiler/validators/linear-keywords.js";
import { LINEAR_URI_SOURCE } from "../../compiler/validators/linear-uri.js";
import { LINEAR_URL_SOURCE } from "../../compiler/validators/linear-url.js";
import { redosVerdict } from "../../compiler/validators/redos.js";

/**
 * Issue 13 item 2 (the model alone stalls the host): ajv-formats' `url` pattern backtracks in cubic time and Ajv's
 * uniqueItems compares every pair of objects. No time is measured here (bench/validation does that): the url
 * pattern is shown super-linear by the ReDoS checker, every expression of the replacement is proven linear by it,
 * the replacement answers exactly as the pattern on generated and adversarial strings, and uniqueItems finds
 * repeats by canonical text with Ajv's error.
 */
const { fullFormats } = createRequire(import.meta.url)("ajv-formats/dist/formats") as {
  fullFormats: Record<string, unknown>;
};
const URL_PATTERN = fullFormats.url as RegExp;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
const PIECES = [
  "http://",
  "https://",
  "ftp://",
  "HTTP://",
  "@",
  ":",
  "/",
  ".",
  "-",
  "a",
  "b",
  "z",
  "1",
  "0",
  "9",
  "10",
  "127",
  "172.16",
  "192.168",
  "255",
  "com",
  "ex",
  " ",
  "\t",
  "\u00a1",
  "\u00e9",
  "\u2028",
  "\u3000",
  ":80",
  ":123456",
  "user:pw@",
  "%",
  "?",
  "#",
  "x.y",
];

describe("the url format", () => {
  it("ajv-formats' pattern is super-linear; every expression of the linear url is proven linear (or at most 15 characters long)", () => {
    expect(redosVerdict(URL_PATTERN.source)).toMatchObject({ linear: false });
    const expressions = [...LINEAR_URL_SOURCE.matchAll(/const [A-Z0-9]+ = \/(.*)\/([a-z]*);/g)].map((m) => ({
      source: m[1]!,
      flags: m[2]!,
    }));
    expect(expressions.map((e) => e.source.slice(0, 12))).toEqual([
      "^(?:https?|f",
      "^(?:(?!(?:10",
      "^(?:(?:[a-z0",
      "\\s",
    ]);
    for (const { source } of expressions) {
      // IPV4 has lookaheads the checker cannot analyse; it is only ever run on at most 15 characters.
      if (source.includes("(?!")) continue;
      expect(redosVerdict(source), source).toEqual({ linear: true });
    }
  }, 120_000);

  it("answers exactly as ajv-formats' url pattern on generated and adversarial strings", () => {
    const random = rng(13);
    const samples = [
      "http://example.com",
      "https://user:pw@example.com:8080/a b",
      "ftp://10.0.0.1",
      "http://1.2.3.4:80/x@y",
      "http://a@b@c.com",
      "http://a b@c.com",
      "http://xn--bcher-kva.ch",
      "http://ex.com:1/",
      "http://ex.com:123456",
      "http://-a.com",
      "http://a.b.c.d.e.fg/",
      "http://\u00e9.\u00e9\u00e9",
      "http://a.com/\u2028",
      "http://a\u3000b.com",
    ];
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
    expect(
      validate([
        { a: 1, b: [1, { c: "x" }] },
        { b: [1, { c: "x" }], a: 1 },
      ]),
    ).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({
      keyword: "uniqueItems",
      params: { i: 1, j: 0 },
      message: "must NOT have duplicate items (items ## 0 and 1 are identical)",
    });
    expect(
      validate([1, "1", true, "true", null, "null", [1], { "1": 1 }, [[1]], { a: "b" }, { a: '"b"' }, 0.5, "0.5"]),
    ).toBe(true);
    expect(validate([1, 2, 3, 2, 1])).toBe(false);
    expect(validate.errors?.[0]?.params).toEqual({ i: 4, j: 0 });
    expect(validate([{ a: 1 }, { a: 1, b: 2 }])).toBe(true);
  });
});

const URI_PIECES = [
  "a",
  "Z",
  "0",
  "9",
  "http:",
  "a:",
  "A1+.-:",
  "//",
  "/",
  "@",
  "[",
  "]",
  ":",
  "::",
  "1:",
  "::1",
  "v1.x",
  "[::1]",
  "[v7.a:b]",
  "[fe80::1%25]",
  "1.2.3.4",
  "256.1.1.1",
  "%",
  "%2",
  "%2f",
  "%zz",
  "%41",
  "?",
  "#",
  '"',
  "-",
  ".",
  "~",
  "!",
  "$",
  "&",
  "'",
  "(",
  ")",
  "*",
  "+",
  ",",
  ";",
  "=",
  "_",
  " ",
  "\u00e9",
  "{",
  "\\",
  "80",
  ":8080",
  "user:pw@",
  "fe80::1",
  "ffff:",
  "[1:2:3:4:5:6:7:8]",
  "[::ffff:1.2.3.4]",
];

describe("the uri and uri-reference formats", () => {
  // That ajv-formats' patterns are super-linear is shown by bench/validation (recheck's automaton takes minutes on them).
  it("of the pattern's IP-literal expressions, the IPvFuture one is proven linear and the IPv6 one runs on at most 45 characters", () => {
    const future = /const IP_FUTURE = \/(.*)\/i;/.exec(LINEAR_URI_SOURCE)![1]!;
    expect(redosVerdict(future)).toEqual({ linear: true });
    expect(LINEAR_URI_SOURCE).toContain("literal.length <= IPV6_MAX_LENGTH && IPV6.test(literal)");
    // The longest IPv6 address text: six groups of four hex digits and an IPv4 address.
    const longest = "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255";
    expect(longest).toHaveLength(45);
    expect(linearUris.uri(`http://[${longest}]/`)).toBe(true);
    expect(linearUris.uri(`http://[${longest}0]/`)).toBe(false);
  }, 300_000);

  it("answer exactly as ajv-formats on generated and adversarial strings", () => {
    const random = rng(31);
    const reference = {
      uri: fullFormats.uri as (s: string) => boolean,
      "uri-reference": (s: string) => (fullFormats["uri-reference"] as RegExp).test(s),
    };
    const samples = [
      "http://example.com",
      "urn:isbn:0451450523",
      "mailto:a@b.c",
      "//host/path",
      "/a/b?c#d",
      "a:",
      "a:b",
      "?q",
      "#f",
      "",
      "http://[::1]:80/x",
      "http://[v1.x]/",
      "http://a@b@c/",
      "http://user:pw@h:12/p?q=1#f",
      "http://h:x/",
      "a://b%zz",
      "\\\\host",
      'a:"q"',
      "http://ex.com/a b",
    ];
    for (let i = 0; i < 40_000; i++) {
      const count = 1 + Math.floor(random() * 10);
      let text = random() < 0.5 ? URI_PIECES[Math.floor(random() * 7)]! : "";
      for (let j = 0; j < count; j++) text += URI_PIECES[Math.floor(random() * URI_PIECES.length)]!;
      samples.push(text);
    }
    for (const format of ["uri", "uri-reference"] as const) {
      let valid = 0;
      for (const sample of samples) {
        const expected = reference[format](sample);
        expect(linearUris[format](sample), `${format} ${JSON.stringify(sample)}`).toBe(expected);
        if (expected) valid++;
      }
      expect(valid).toBeGreaterThan(1_000);
    }
  });
});

describe("the regex format", () => {
  const REGEX_PIECES = [
    "a",
    "b",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "|",
    "*",
    "+",
    "?",
    "^",
    "$",
    ".",
    "\\",
    "-",
    ",",
    "0",
    "1",
    "9",
    ":",
    "=",
    "!",
    "<",
    ">",
    "k",
    "p",
    "u",
    "x",
    "c",
    "d",
    "w",
    "B",
    "/",
    "\\1",
    "\\2",
    "(?:",
    "(?=",
    "(?!",
    "(?<=",
    "(?<!",
    "(?<a>",
    "\\k<a>",
    "{1,2}",
    "{2}",
    "{,}",
    "\\u{41}",
    "\\u0041",
    "\\x4",
    "\\cA",
    "\\c",
    "[^",
    "\\Z",
    "\\p{L}",
    "\ud800",
  ];
  const v8 = (source: string): boolean => {
    if (/[^\\]\\Z/.test(source)) return false;
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  };

  it("answers as ajv-formats (V8's parser) on generated strings, without compiling them", () => {
    const random = rng(29);
    let valid = 0;
    for (let i = 0; i < 100_000; i++) {
      let source = "";
      const count = 1 + Math.floor(random() * 8);
      for (let j = 0; j < count; j++) source += REGEX_PIECES[Math.floor(random() * REGEX_PIECES.length)]!;
      const expected = v8(source);
      expect(linearRegex(source), JSON.stringify(source)).toBe(expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(10_000);
  });

  it("refuses groups nested deeper than 256, the same on every machine (V8 would accept thousands)", () => {
    const nested = (depth: number) => `${"(".repeat(depth)}a${")".repeat(depth)}`;
    expect(linearRegex(nested(256))).toBe(true);
    expect(linearRegex(nested(257))).toBe(false);
    expect(v8(nested(5_000))).toBe(true);
    expect(linearRegex(nested(5_000))).toBe(false);
    // Parentheses inside a character class and escaped ones are not groups.
    expect(linearRegex(`[${"(".repeat(1_000)}]`)).toBe(true);
    expect(linearRegex("\\(".repeat(1_000))).toBe(true);
  });
});

describe("the date-time and iso-date-time formats", () => {
  it("answer as ajv-formats on generated strings, without splitting them", () => {
    const random = rng(37);
    const pieces = [
      "2024-02-29",
      "2023-02-29",
      "1970-01-01",
      "9999-12-31",
      "T",
      "t",
      " ",
      "\t",
      "\u00a0",
      "\u2028",
      "10:20:30",
      "23:59:60",
      "24:00:00",
      "10:20:30.5",
      "Z",
      "z",
      "+01:00",
      "-0130",
      "+01",
      "x",
      "1",
      ":",
      "-",
      ".",
    ];
    const samples = [
      "2024-02-29T10:20:30Z",
      "2024-02-29 10:20:30",
      "2024-02-29t10:20:30+01:00",
      "2024-02-29T10:20:30",
      "",
      "T",
      "2024-02-29TT10:20:30Z",
    ];
    const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)]!;
    for (let i = 0; i < 40_000; i++) {
      let text = "";
      if (random() < 0.5) {
        // date, separator, time, zone: mostly valid parts, so both answers occur often.
        text =
          pick(pieces.slice(0, 4)) +
          pick(pieces.slice(4, 10)) +
          pick(pieces.slice(10, 14)) +
          pick(["", "Z", "z", "+01:00", "-0130", "+01", "x"]);
        if (random() < 0.3) text += pick(pieces);
      } else {
        const count = 1 + Math.floor(random() * 5);
        for (let j = 0; j < count; j++) text += pick(pieces);
      }
      samples.push(text);
    }
    for (const format of ["date-time", "iso-date-time"] as const) {
      const reference = (fullFormats[format] as { validate: (s: string) => boolean }).validate;
      let valid = 0;
      for (const sample of samples) {
        const expected = reference(sample);
        expect(linearDateTimes[format](sample), `${format} ${JSON.stringify(sample)}`).toBe(expected);
        if (expected) valid++;
      }
      expect(valid).toBeGreaterThan(100);
    }
  });
});

describe("the uri-template format", () => {
  it("answers exactly as ajv-formats' pattern on generated strings over every character its grammar treats apart", () => {
    const pattern = fullFormats["uri-template"] as RegExp;
    const alphabet = [
      "{",
      "}",
      "%",
      "a",
      "Z",
      "_",
      "0",
      "1",
      "9",
      "5",
      ":",
      "*",
      ",",
      "+",
      "#",
      ".",
      "/",
      ";",
      "?",
      "&",
      "=",
      "!",
      "@",
      "|",
      "F",
      "g",
      " ",
      '"',
      "'",
      "<",
      ">",
      "\\",
      "`",
      "^",
      "\u00e9",
      "\u0000",
      "\u007f",
      "-",
      "~",
      "\ud800",
      "\u017f",
      "\u212a",
    ];
    const random = rng(29);
    const samples = [
      "{a}",
      "{+a,b:12,c*}",
      "x{a:1234}",
      "x{a:12345}",
      "{a:0}",
      "%4a{%41b}",
      "{,a}",
      "{}",
      "{a,}",
      "{a:}",
      "%4",
      "ab%zz",
      "{a*:1}",
      "{\u017f}",
      "{\u212a}",
    ];
    for (let i = 0; i < 50_000; i++) {
      let text = "";
      const length = Math.floor(random() * 14);
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)]!;
      samples.push(text);
    }
    let valid = 0;
    for (const sample of samples) {
      const expected = pattern.test(sample);
      expect(linearUriTemplate(sample), JSON.stringify(sample)).toBe(expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(1000);
  });
});
