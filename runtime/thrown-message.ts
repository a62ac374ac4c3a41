/** A thrown value's message for an outcome: never throws, never longer than 1000 characters. */
export function thrownMessage(thrown: unknown): string {
  let text: string;
  try {
    text = thrown instanceof Error ? `${thrown.name !== "Error" && typeof thrown.name === "string" ? `${thrown.name}: ` : ""}${String(thrown.message)}` : String(thrown);
  } catch {
    text = "an error whose message could not be read";
  }
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}
