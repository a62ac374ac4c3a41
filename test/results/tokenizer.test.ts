import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import {
  fitsTokens,
  LONG_PIECE_BYTES,
  loadTokenizer,
  MAX_TOKEN_BYTES,
  TOKENIZER,
  tokenBounds,
  utf8Bytes,
} from "../../src/contract/results/tokenizer.js";
import { randomText, rng } from "./generate.js";

const exact = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;

describe("the pinned tokenizer", () => {
  it("is the installed gpt-tokenizer version", () => {
    const installed = (createRequire(import.meta.url)("gpt-tokenizer/package.json") as { version: string }).version;
    expect(installed).toBe(TOKENIZER.version);
    expect(TOKENIZER.id).toBe("o200k_base");
  });

  it("counts exactly like o200k_base when no pre-tokenized piece is long", async () => {
    const tokenizer = await loadTokenizer();
    const random = rng(7);
    for (let i = 0; i < 300; i++) {
      const text = randomText(random, 1 + Math.floor(random() * 3000));
      expect(tokenizer.count(text), JSON.stringify(text.slice(0, 80))).toBe(exact(text));
    }
  });

  it("treats special-token strings in a result as plain text", async () => {
    const tokenizer = await loadTokenizer();
    const text = 'log: <|endoftext|> then <|im_start|>user "x"';
    expect(tokenizer.count(text)).toBe(exact(text));
    expect(tokenizer.count(text)).toBeGreaterThan(10);
  });

  it("counts a long piece as its bytes: never below the exact count, never above the bytes", async () => {
    const tokenizer = await loadTokenizer();
    const cases = [
      "a".repeat(5000),
      `intro ${"漢字".repeat(400)} outro`,
      `x ${"Zm9vYmFy".repeat(300)} y`,
      "word ".repeat(400) + "q".repeat(LONG_PIECE_BYTES + 1),
    ];
    for (const text of cases) {
      const count = tokenizer.count(text);
      expect(count).toBeGreaterThanOrEqual(exact(text));
      expect(count).toBeGreaterThanOrEqual(Math.ceil(utf8Bytes(text) / MAX_TOKEN_BYTES));
      expect(count).toBeLessThanOrEqual(utf8Bytes(text));
    }
    // The part around the long piece is still counted exactly.
    const mixed = `${"short words here ".repeat(50)}${"b".repeat(2000)}`;
    expect(tokenizer.count(mixed)).toBe(exact("short words here ".repeat(50)) + 2000);
  });

  it("decides fits from the byte bounds alone when they are conclusive", async () => {
    expect(tokenBounds("héllo")).toEqual({ lower: 1, upper: 6 });
    expect(await fitsTokens("x".repeat(100), 100)).toBe(true);
    expect(await fitsTokens("x".repeat(128 * 101), 100)).toBe(false);
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(40);
    expect(await fitsTokens(text, exact(text))).toBe(true);
    expect(await fitsTokens(text, exact(text) - 1)).toBe(false);
  });
});
