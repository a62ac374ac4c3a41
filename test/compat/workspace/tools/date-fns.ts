// date-fns (ES modules, hundreds of small files) and its time arithmetic.
import { addBusinessDays, differenceInCalendarDays, formatISO, parseISO } from "date-fns";
import { schema, tool } from "cave";

const input = schema.object({ from: schema.string(), businessDays: schema.integer() });
const output = schema.object({ due: schema.string(), calendarDays: schema.integer() });

function execute({ from, businessDays }: { from: string; businessDays: number }) {
  const start = parseISO(from);
  const due = addBusinessDays(start, businessDays);
  return { due: formatISO(due, { representation: "date" }), calendarDays: differenceInCalendarDays(due, start) };
}

export const dateFns = tool({ name: "date_fns", description: "Adds business days with date-fns.", effect: "read", input, output, execute });
export const dateFnsHost = tool({ name: "date_fns_host", description: "Adds business days with date-fns, in process.", effect: "read", sandbox: "none", input, output, execute });
