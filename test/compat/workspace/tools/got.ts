// got: imports Node's http, https, net and tls (the deny layer once broke its TLSSocket at import) and makes a real
// request: in process straight to the URL, sandboxed through the host's egress broker (its only network), to the one
// host its sandboxProfile lists.
import got from "got";
import { schema, tool } from "cave";

const input = schema.object({ url: schema.string() });
const output = schema.object({ status: schema.integer(), body: schema.string() });

async function execute({ url }: { url: string }) {
  const client = got.extend({ headers: { "user-agent": "cave-compat got" }, retry: { limit: 0 }, timeout: { request: 15_000 } });
  const response = await client.get(url);
  return { status: response.statusCode, body: response.body };
}

export const gotTool = tool({ name: "got", description: "Fetches a URL with got.", effect: "external", sandboxProfile: { egress: ["api.compat.test"] }, input, output, execute });
export const gotHost = tool({ name: "got_host", description: "Fetches a URL with got, in process.", effect: "external", sandbox: "none", input, output, execute });
