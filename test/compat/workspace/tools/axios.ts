// axios (its Node build: http, https, follow-redirects, form-data, proxy-from-env) runs a whole request through its
// interceptors and transforms with an adapter of the tool's own, so nothing leaves the sandbox.
import axios from "axios";
import { schema, tool } from "cave";

const input = schema.object({ id: schema.integer() });
const output = schema.object({ url: schema.string(), status: schema.integer(), name: schema.string() });

async function execute({ id }: { id: number }) {
  const client = axios.create({ baseURL: "https://api.example.com/v1", adapter: async (config) => ({ data: JSON.stringify({ name: `customer ${id}` }), status: 200, statusText: "OK", headers: { "content-type": "application/json" }, config }) });
  const response = await client.get<{ name: string }>(`/customers/${id}`, { params: { expand: "orders" } });
  return { url: client.getUri(response.config), status: response.status, name: response.data.name };
}

export const axiosTool = tool({ name: "axios", description: "Runs a request through axios with a local adapter.", effect: "read", input, output, execute });
export const axiosHost = tool({ name: "axios_host", description: "Runs a request through axios with a local adapter, in process.", effect: "read", sandbox: "none", input, output, execute });
