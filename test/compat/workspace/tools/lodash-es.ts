// lodash-es declares a top-level `var Symbol` in one of its modules: when the SDK was concatenated in front of
// every bundle, that declaration hoisted over the SDK's use of the global and every call failed at load (issue 11).
import { groupBy, sumBy } from "lodash-es";
import { schema, tool } from "cave";

const input = schema.object({ items: schema.array(schema.object({ kind: schema.string(), n: schema.number() })) });
const output = schema.object({ total: schema.number(), kinds: schema.array(schema.string()) });

function execute({ items }: { items: Array<{ kind: string; n: number }> }) {
  return { total: sumBy(items, "n"), kinds: Object.keys(groupBy(items, "kind")).sort() };
}

export const lodashEs = tool({ name: "lodash_es", description: "Sums and groups with lodash-es.", effect: "read", input, output, execute });
export const lodashEsHost = tool({ name: "lodash_es_host", description: "Sums and groups with lodash-es, in process.", effect: "read", sandbox: "none", input, output, execute });
