import { tool } from "cave";
import { z } from "zod";

/** A Standard Schema (zod) tool whose input transform yields a Date, which is not JSON data. */
export const daysUntil = tool({
  name: "days_until",
  description: "Days from 2020-01-01 to a date.",
  input: z.object({ date: z.string().transform((text) => new Date(`${text}T00:00:00Z`)) }),
  output: z.object({ days: z.number().int() }),
  schemaSemanticsSHA256: "0000000000000000000000000000000000000000000000000000000000000002",
  effect: "read",
  allowRepeat: true,
  execute({ date }) {
    if (!(date instanceof Date)) throw new Error(`execute got ${typeof date}, not the transformed Date`);
    const days = (date.getTime() - Date.UTC(2020, 0, 1)) / 86_400_000;
    return { days: date.getUTCFullYear() === 1999 ? 0.5 : days };
  },
});
