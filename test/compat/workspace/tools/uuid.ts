// uuid: crypto.getRandomValues for v4, hashing for v5.
import { v4, v5, validate, version } from "uuid";
import { schema, tool } from "cave";

const input = schema.object({ name: schema.string() });
const output = schema.object({ random: schema.string(), randomVersion: schema.integer(), named: schema.string() });

function execute({ name }: { name: string }) {
  const random = v4();
  if (!validate(random)) throw new Error("uuid made an invalid v4");
  return { random, randomVersion: version(random), named: v5(name, v5.DNS) };
}

export const uuidTool = tool({ name: "uuid", description: "Makes UUIDs with uuid.", effect: "read", input, output, execute });
export const uuidHost = tool({ name: "uuid_host", description: "Makes UUIDs with uuid, in process.", effect: "read", sandbox: "none", input, output, execute });
