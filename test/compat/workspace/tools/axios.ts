// axios (its Node build: http, https, follow-redirects, form-data, proxy-from-env) makes a real request through its
// interceptors, transforms and Node http adapter: in process straight to the URL, sandboxed through the host's egress
// broker (its only network), to the one host its sandboxProfile lists.
import axios from "axios";
import { schema, tool } from "cave";

const input = schema.object({ url: schema.string() });
const output = schema.object({ status: schema.integer(), body: schema.string() });

async function execute({ url }: { url: string }) {
  const client = axios.create({ headers: { "user-agent": "cave-compat axios" }, timeout: 15_000, responseType: "text", transformResponse: (text: string) => text });
  const response = await client.get<string>(url, { params: { expand: "orders" } });
  return { status: response.status, body: response.data };
}

export const axiosTool = tool({ name: "axios", description: "Fetches a URL with axios.", effect: "external", sandboxProfile: { egress: ["api.compat.test"] }, input, output, execute });
export const axiosHost = tool({ name: "axios_host", description: "Fetches a URL with axios, in process.", effect: "external", sandbox: "none", input, output, execute });
