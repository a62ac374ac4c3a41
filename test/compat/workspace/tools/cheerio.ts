// cheerio: parses HTML (parse5, htmlparser2, entities, undici's decoder in its dependency graph) and queries it.
import { load } from "cheerio";
import { schema, tool } from "cave";

const input = schema.object({ html: schema.string() });
const output = schema.object({ title: schema.string(), links: schema.array(schema.string()) });

function execute({ html }: { html: string }) {
  const $ = load(html);
  return { title: $("title").text(), links: $("a").map((_, a) => $(a).attr("href") ?? "").get() };
}

export const cheerioTool = tool({ name: "cheerio", description: "Reads a page's title and links with cheerio.", effect: "read", input, output, execute });
export const cheerioHost = tool({ name: "cheerio_host", description: "Reads a page's title and links with cheerio, in process.", effect: "read", sandbox: "none", input, output, execute });
