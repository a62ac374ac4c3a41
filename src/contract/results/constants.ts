/** Numbers every result plan shares; changing one changes locks, so each is part of the plan's meaning. */

/** The inline cap of `auto`: a result of at most this many tokens enters context as is. */
export const INLINE_CAP_TOKENS = 1200;
/** Page size of `page` and `auto` plans, and of paging recovered bytes. */
export const DEFAULT_PAGE_TOKENS = 1200;
/**
 * The smallest page: one page must hold any JSON token that is never split (a number, a literal, an
 * escape sequence; at most 25 bytes) with room to spare.
 */
export const MIN_PAGE_TOKENS = 64;
/** The preview an exact_ccr view shows before its reference. */
export const VIEW_PREVIEW_TOKENS = 200;
/** An explicit exact_ccr replaces only results larger than its own view. */
export const EXACT_CCR_INLINE_TOKENS = VIEW_PREVIEW_TOKENS;

/** Reserved tools the runtime declares when a locked plan needs them. */
export const CAVE_PAGE = "cave_page";
export const CAVE_RECOVER = "cave_recover";

/** The preview size of an exact_ccr view: never more than the plan lets into context. */
export function viewTokens(inlineUpTo: number | null): number {
  return inlineUpTo === null ? VIEW_PREVIEW_TOKENS : Math.min(VIEW_PREVIEW_TOKENS, inlineUpTo);
}
