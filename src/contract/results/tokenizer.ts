import { createRequire } from "node:module";
import type { LockedTokenizer } from "../lock.js";

/**
 * The one way Cave counts tokens, at build time and at run time: OpenAI's o200k_base BPE as
 * implemented by the pure-JS `gpt-tokenizer` package, pinned to one exact version.
 */
export const TOKENIZER: LockedTokenizer = Object.freeze({ id: "o200k_base", version: "4.0.0" });
export const TOKENIZER_PACKAGE = "gpt-tokenizer";

/**
 * Longest o200k_base token, in bytes (measured over the whole vocabulary). Every token covers 1 to
 * 128 bytes of the UTF-8 text and the tokens of a text partition its bytes, so
 * ceil(bytes / 128) <= tokens <= bytes.
 */
export const MAX_TOKEN_BYTES = 128;

/**
 * BPE merging in gpt-tokenizer is quadratic in the length of one pre-tokenized piece (a run of
 * letters with no space, e.g. base64 or CJK text: 100 KB of one piece takes ~10 s). A piece longer
 * than this many bytes is counted as its byte length, which is an upper bound of its tokens.
 */
export const LONG_PIECE_BYTES = 512;

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Proven bounds from the byte length alone: no tokenizer needed. */
export function tokenBounds(text: string): { readonly lower: number; readonly upper: number } {
  const bytes = utf8Bytes(text);
  return { lower: Math.ceil(bytes / MAX_TOKEN_BYTES), upper: bytes };
}

export interface Tokenizer {
  readonly pin: LockedTokenizer;
  /**
   * The token measure of `text`: the exact o200k_base count when no pre-tokenized piece is longer
   * than LONG_PIECE_BYTES, otherwise that count with each long piece replaced by its byte length.
   * Always exact <= count(text) <= bytes, and additive over pre-tokenized pieces.
   */
  count(text: string): number;
  /** Whether `text` measures at most `limit` tokens; the byte bounds decide first, the count only near the limit. */
  fits(text: string, limit: number): boolean;
}

export class TokenizerMismatchError extends Error {
  readonly code = "TOKENIZER_MISMATCH";
}

let loading: Promise<Tokenizer> | undefined;

/** Loads the pinned tokenizer once (its ranks are ~2.4 MB of JS, so only when something must be counted). */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= load();
  return loading;
}

/** Whether `text` measures at most `limit` tokens, loading the tokenizer only when the byte bounds cannot decide. */
export async function fitsTokens(text: string, limit: number): Promise<boolean> {
  const { lower, upper } = tokenBounds(text);
  if (upper <= limit) return true;
  if (lower > limit) return false;
  return (await loadTokenizer()).count(text) <= limit;
}

async function load(): Promise<Tokenizer> {
  const installed = (createRequire(import.meta.url)(`${TOKENIZER_PACKAGE}/package.json`) as { version?: unknown })
    .version;
  if (installed !== TOKENIZER.version) {
    throw new TokenizerMismatchError(
      `the lock counts tokens with ${TOKENIZER_PACKAGE} ${TOKENIZER.version} (${TOKENIZER.id}) but ${String(installed)} is installed; install exactly ${TOKENIZER.version}`,
    );
  }
  const [encoding, params] = await Promise.all([
    import("gpt-tokenizer/encoding/o200k_base"),
    import("gpt-tokenizer/encodingParams/constants"),
  ]);
  return makeTokenizer(encoding.countTokens, params.O200K_TOKEN_SPLIT_REGEX);
}

/**
 * Whether `text` may hold a pre-tokenized piece longer than LONG_PIECE_BYTES. Such a piece spans more
 * than 170 UTF-16 units, and every o200k piece is one class of characters apart from at most four
 * units (a leading space or symbol, a contraction such as "'ll"): letters and marks, symbols and
 * punctuation, whitespace, or the newline and slash tail of a symbol run. So a text without a run of
 * 80 units of one class has none. One pass over char codes (a Unicode-property regex is ~10x slower);
 * a non-ASCII unit counts towards every class but the tail, which only errs towards the slow path.
 */
function mayHoldLongPiece(text: string): boolean {
  const RUN = 80;
  let letters = 0;
  let symbols = 0;
  let spaces = 0;
  let tails = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
      const space = c === 32 || (c >= 9 && c <= 13);
      const symbol = !letter && !space && !(c >= 48 && c <= 57);
      letters = letter ? letters + 1 : 0;
      spaces = space ? spaces + 1 : 0;
      symbols = symbol ? symbols + 1 : 0;
      tails = c === 10 || c === 13 || c === 47 ? tails + 1 : 0;
    } else {
      letters += 1;
      symbols += 1;
      spaces += 1;
      tails = 0;
    }
    if (letters >= RUN || symbols >= RUN || spaces >= RUN || tails >= RUN) return true;
  }
  return false;
}

// Special-token strings such as "<|endoftext|>" in a result are plain text, never control tokens.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

function makeTokenizer(countTokens: (text: string, options: typeof AS_TEXT) => number, split: RegExp): Tokenizer {
  const exact = (text: string) => countTokens(text, AS_TEXT);
  const count = (text: string): number => {
    if (text.length * 3 <= LONG_PIECE_BYTES || !mayHoldLongPiece(text)) return exact(text);
    // Runs of short pieces are counted whole (the pre-tokenizer matches each run exactly as it matched
    // inside the text, see docs/result-plans.md); each long piece contributes its bytes.
    let total = 0;
    let runStart = 0;
    for (const match of text.matchAll(split)) {
      const piece = match[0];
      if (piece.length * 3 <= LONG_PIECE_BYTES) continue;
      const bytes = utf8Bytes(piece);
      if (bytes <= LONG_PIECE_BYTES) continue;
      const at = match.index;
      if (at > runStart) total += exact(text.slice(runStart, at));
      total += bytes;
      runStart = at + piece.length;
    }
    if (runStart === 0) return exact(text);
    if (runStart < text.length) total += exact(text.slice(runStart));
    return total;
  };
  const fits = (text: string, limit: number): boolean => {
    const { lower, upper } = tokenBounds(text);
    if (upper <= limit) return true;
    if (lower > limit) return false;
    return count(text) <= limit;
  };
  return Object.freeze({ pin: TOKENIZER, count, fits });
}
