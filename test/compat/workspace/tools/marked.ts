// marked: Markdown to HTML.
import { marked } from "marked";
import { schema, tool } from "cave";

const input = schema.object({ markdown: schema.string() });
const output = schema.object({ html: schema.string() });

function execute({ markdown }: { markdown: string }) {
  return { html: marked.parse(markdown, { async: false }) };
}

export const markedTool = tool({ name: "marked", description: "Renders Markdown with marked.", effect: "read", input, output, execute });
export const markedHost = tool({ name: "marked_host", description: "Renders Markdown with marked, in process.", effect: "read", sandbox: "none", input, output, execute });
