// yaml: parses and prints YAML documents.
import { parse, stringify } from "yaml";
import { schema, tool } from "cave";

const input = schema.object({ text: schema.string() });

function execute({ text }: { text: string }) {
  const value = parse(text) as unknown;
  return { value, again: stringify(value) };
}

export const yamlTool = tool({ name: "yaml", description: "Parses YAML with yaml.", effect: "read", input, execute });
export const yamlHost = tool({ name: "yaml_host", description: "Parses YAML with yaml, in process.", effect: "read", sandbox: "none", input, execute });
