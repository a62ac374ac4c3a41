// semver (CommonJS, many internal requires).
import semver from "semver";
import { schema, tool } from "cave";

const input = schema.object({ versions: schema.array(schema.string()), range: schema.string() });
const output = schema.object({ best: schema.union([schema.string(), schema.null()]), sorted: schema.array(schema.string()) });

function execute({ versions, range }: { versions: string[]; range: string }) {
  return { best: semver.maxSatisfying(versions, range), sorted: semver.sort([...versions]) };
}

export const semverTool = tool({ name: "semver", description: "Picks a version with semver.", effect: "read", input, output, execute });
export const semverHost = tool({ name: "semver_host", description: "Picks a version with semver, in process.", effect: "read", sandbox: "none", input, output, execute });
