import type { Tokenizer } from "../../src/contract/results/tokenizer.js";
import { BETWEEN_TOKENS, IN_STRING, safeCuts } from "./boundaries.js";

/** How far back from a page's end an in-string cut may move to land after a space. */
const WORD_LOOKBACK = 64;
/** A page is accepted once it uses this share of its budget, to keep the number of counts per page low. */
const GOOD_ENOUGH = 0.9;

/**
 * Cuts `text` (a serialised result) into pages of at most `pageTokens` tokens of the pinned measure,
 * at safe cuts only (see boundaries.ts): between JSON tokens where one lies in the second half of the
 * page, else inside the current string, preferring a cut after a space. Returns the cut offsets,
 * from 0 to text.length; the pages concatenate to `text` exactly. Deterministic for a given text,
 * page size and tokenizer.
 */
export function pageCuts(text: string, pageTokens: number, tokenizer: Tokenizer, maxPages = Infinity): number[] {
  if (text.length * 3 <= pageTokens) return [0, text.length];
  const marks = safeCuts(text);
  const cuts = [0];
  let start = 0;
  // Characters per token of the previous page: the first guess for the next one.
  let ratio = 3;
  for (;;) {
    if (start >= text.length || cuts.length > maxPages) break;
    if ((text.length - start) * 3 <= pageTokens) {
      cuts.push(text.length);
      break;
    }
    const end = fitPage(text, marks, start, pageTokens, ratio, tokenizer);
    ratio = Math.max(1, (end - start) / Math.max(1, pageTokens));
    cuts.push(end);
    start = end;
  }
  return cuts;
}

function fitPage(
  text: string,
  marks: Uint8Array,
  start: number,
  budget: number,
  ratio: number,
  tokenizer: Tokenizer,
): number {
  let best = -1;
  let low = start; // largest end known to fit
  let high = text.length + 1; // smallest end known not to fit
  let guess = start + Math.floor(budget * ratio);
  for (let round = 0; round < 40; round++) {
    const end = cutAtOrBefore(marks, text, start, Math.min(Math.max(guess, start + 1), text.length));
    if (end <= low || end >= high) break;
    const tokens = tokenizer.count(text.slice(start, end));
    if (tokens <= budget) {
      best = end;
      low = end;
      if (tokens >= budget * GOOD_ENOUGH) break;
      guess = start + Math.floor(((end - start) * budget) / Math.max(1, tokens));
      if (guess >= high) guess = Math.floor((end + high) / 2);
    } else {
      high = end;
      guess = start + Math.floor(((end - start) * budget * 0.97) / tokens);
      if (guess <= low) guess = Math.floor((low + end) / 2);
    }
  }
  if (best > start) return best;
  // The smallest safe cut after start: one unit (a number, a literal, an escape) always fits a page of 64+ tokens.
  let end = start + 1;
  while (end < text.length && marks[end] === 0) end += 1;
  return end;
}

/** The best safe cut in (start, limit]: a token boundary in the second half of the page, else an in-string cut, after a space when one is near. */
function cutAtOrBefore(marks: Uint8Array, text: string, start: number, limit: number): number {
  const half = start + Math.floor((limit - start) / 2);
  let inString = -1;
  for (let i = limit; i > start; i--) {
    const mark = marks[i]!;
    if (mark === BETWEEN_TOKENS) {
      if (i >= half || inString === -1) return i;
      return inString;
    }
    if (mark === IN_STRING && inString === -1) inString = i;
    if (inString !== -1 && i < half) break;
  }
  if (inString === -1) return start;
  for (let i = inString; i > Math.max(start, inString - WORD_LOOKBACK); i--) {
    if (marks[i] === IN_STRING && text.charCodeAt(i - 1) === 0x20) return i;
  }
  return inString;
}
