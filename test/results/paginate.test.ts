import { describe, expect, it } from "vitest";
import { serializeResult } from "../../src/contract/results/serial.js";
import { loadTokenizer } from "../../src/contract/results/tokenizer.js";
import { BETWEEN_TOKENS, IN_STRING, safeCuts } from "../../runtime/results/boundaries.js";
import { pageCuts } from "../../runtime/results/paginate.js";
import { randomValue, rng } from "./generate.js";

/** What a cut may never split: a number or literal, an escape sequence, a surrogate pair (a UTF-8 character). */
function splitsSomething(text: string, at: number): string | null {
  const before = text[at - 1] ?? "";
  const after = text[at] ?? "";
  const hi = text.charCodeAt(at - 1);
  const lo = text.charCodeAt(at);
  if (hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) return "a surrogate pair";
  if (/[0-9a-z.+\-E]/i.test(before) && /[0-9a-z.+\-E]/i.test(after) && outsideString(text, at))
    return "a number or literal";
  // Inside a string: the cut must not fall inside an escape sequence.
  if (!outsideString(text, at)) {
    let i = at - 1;
    let backslashes = 0;
    while (i >= 0 && text[i] === "\\") {
      backslashes++;
      i--;
    }
    if (backslashes % 2 === 1) return "an escape sequence";
    const u = text.lastIndexOf("\\u", at - 1);
    if (u !== -1 && at - u < 6 && u >= at - 5 && !isEscapedBackslash(text, u)) return "a \\u escape";
  }
  return null;
}

function isEscapedBackslash(text: string, index: number): boolean {
  let n = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) n++;
  return n % 2 === 1;
}

function outsideString(text: string, at: number): boolean {
  let inside = false;
  for (let i = 0; i < at; i++) {
    if (text[i] === "\\" && inside) i++;
    else if (text[i] === '"') inside = !inside;
  }
  return !inside;
}

describe("paging a serialised result", () => {
  it("pages concatenate to the exact original, fit the budget and never split a character, number, literal or escape", async () => {
    const tokenizer = await loadTokenizer();
    const random = rng(42);
    let multiPage = 0;
    for (let n = 0; n < 60; n++) {
      const value = Array.from({ length: 1 + Math.floor(random() * 8) }, () => randomValue(random));
      const text = serializeResult(value);
      const budget = 64 + Math.floor(random() * 400);
      const cuts = pageCuts(text, budget, tokenizer);
      expect(cuts[0]).toBe(0);
      expect(cuts.at(-1)).toBe(text.length);
      const pages = cuts.slice(1).map((end, i) => text.slice(cuts[i], end));
      expect(pages.join("")).toBe(text);
      expect(Buffer.concat(pages.map((p) => Buffer.from(p, "utf8"))).equals(Buffer.from(text, "utf8"))).toBe(true);
      if (pages.length > 1) multiPage++;
      expect(Math.max(...pages.map((page) => tokenizer.count(page)))).toBeLessThanOrEqual(budget);
      const bad = cuts
        .slice(1, -1)
        .map((at) => [at, splitsSomething(text, at)] as const)
        .filter(([, why]) => why !== null);
      expect(bad.map(([at, why]) => `${why} at ${at}: ${JSON.stringify(text.slice(at - 10, at + 10))}`)).toEqual([]);
    }
    expect(multiPage).toBeGreaterThan(20);
  }, 120_000);

  it("cuts between JSON tokens when a page holds records, inside a string only when one string is longer than a page", async () => {
    const tokenizer = await loadTokenizer();
    const records = Array.from({ length: 300 }, (_, i) => ({ id: i, name: `customer ${i}`, total: i * 1.25 }));
    const text = serializeResult(records);
    const marks = safeCuts(text);
    const cuts = pageCuts(text, 200, tokenizer);
    expect(cuts.length).toBeGreaterThan(5);
    for (const at of cuts.slice(1, -1)) expect(marks[at]).toBe(BETWEEN_TOKENS);

    const long = serializeResult({ log: "line of text ".repeat(2000) });
    const longCuts = pageCuts(long, 300, tokenizer);
    const inString = longCuts.slice(1, -1).filter((at) => safeCuts(long)[at] === IN_STRING);
    expect(inString.length).toBeGreaterThan(3);
    // Preferably after a space, so words stay whole.
    for (const at of inString) expect(long[at - 1]).toBe(" ");
  });

  it("is deterministic and gives one page when the text fits", async () => {
    const tokenizer = await loadTokenizer();
    const text = serializeResult({ a: "ü".repeat(5000) });
    expect(pageCuts(text, 500, tokenizer)).toEqual(pageCuts(text, 500, tokenizer));
    expect(pageCuts('{"a":1}', 64, tokenizer)).toEqual([0, 7]);
  });
});
