/** Order ids are shown upper-case. */
export function formatOrderId(id: string): string {
  return id.toUpperCase();
}
