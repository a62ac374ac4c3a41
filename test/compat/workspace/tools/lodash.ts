// lodash (CommonJS, one large module that inspects its environment at load) bundled into an ES module.
import _ from "lodash";
import { schema, tool } from "cave";

const input = schema.object({ words: schema.array(schema.string()) });

function execute({ words }: { words: string[] }) {
  return { counts: _.countBy(words, (word) => word.length), camel: _.uniq(words.map((word) => _.camelCase(word))) };
}

export const lodashTool = tool({ name: "lodash", description: "Counts and camel-cases words with lodash.", effect: "read", input, execute });
export const lodashHost = tool({ name: "lodash_host", description: "Counts and camel-cases words with lodash, in process.", effect: "read", sandbox: "none", input, execute });
