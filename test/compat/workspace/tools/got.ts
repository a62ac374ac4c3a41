// got: imports Node's http, https, net and tls (the deny layer once broke its TLSSocket at import) and builds requests.
// No request leaves: the call merges and normalises options the way every request does, which needs no network.
import got, { Options } from "got";
import { schema, tool } from "cave";

const input = schema.object({ base: schema.string(), path: schema.string() });
const output = schema.object({ url: schema.string(), method: schema.string(), agent: schema.string() });

function execute({ base, path }: { base: string; path: string }) {
  const client = got.extend({ prefixUrl: base, headers: { "user-agent": "cave-compat" }, method: "POST" });
  const options = new Options(path, {}, client.defaults.options);
  return { url: String(options.url), method: options.method, agent: String(options.headers["user-agent"]) };
}

export const gotTool = tool({ name: "got", description: "Builds a request with got.", effect: "read", input, output, execute });
export const gotHost = tool({ name: "got_host", description: "Builds a request with got, in process.", effect: "read", sandbox: "none", input, output, execute });
