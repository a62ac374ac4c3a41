/** The short texts the model sees around a replaced result: one header line, then the body. */

export function pageHeader(page: number, pageCount: number, bytes: number, nextCursor: string | null): string {
  const where = `page ${page} of ${pageCount} of a ${bytes}-byte result`;
  if (nextCursor === null) return `[${where}; the last page. cave_page with a cursor and "page": N returns any page]`;
  return `[${where}. Next: cave_page ${JSON.stringify({ cursor: nextCursor })}; add "page": N for any page]`;
}

export function recoverHeader(page: number, pageCount: number, bytes: number, ref: string): string {
  return `[exact result, page ${page} of ${pageCount} of ${bytes} bytes. The pages concatenate to it exactly; cave_recover ${JSON.stringify({ ref, page: Math.min(page + 1, pageCount) })} returns ${page < pageCount ? "the next" : "the last"}]`;
}

export function exactViewHeader(bytes: number, ref: string, summary: string): string {
  return `[the exact result (${summary}, ${bytes} bytes) is stored; this is its beginning. cave_recover ${JSON.stringify({ ref })} returns it exactly, in pages when large]`;
}

export function compressHeader(
  transform: { id: string; version: number; lossless: boolean },
  ref: string | null,
): string {
  const kind = transform.lossless ? "lossless" : "lossy";
  const recover = ref === null ? "" : `; cave_recover ${JSON.stringify({ ref })} returns the exact result`;
  return `[compressed by ${transform.id}@${transform.version} (${kind})${recover}]`;
}

/** A few words on what a value is, for a view that shows only its beginning. */
export function summarize(value: unknown): string {
  if (Array.isArray(value)) {
    const first = value[0];
    if (first !== null && typeof first === "object" && !Array.isArray(first)) {
      return `an array of ${value.length} items, objects with keys ${listKeys(Object.keys(first))}`;
    }
    return `an array of ${value.length} items`;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    return `an object with ${keys.length} keys: ${listKeys(keys)}`;
  }
  if (typeof value === "string") return `a string of ${value.length} characters`;
  return value === null ? "null" : `a ${typeof value}`;
}

function listKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 8).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k));
  return keys.length > 8 ? `${shown.join(", ")} and ${keys.length - 8} more` : shown.join(", ");
}
