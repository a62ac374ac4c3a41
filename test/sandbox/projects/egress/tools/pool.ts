import { schema, tool } from "cave";
import { Agent, Pool, fetch as undiciFetch } from "undici";

/** An undici pool or agent the tool makes itself does not go through the broker: refused, naming the route. */
export const ownPool = tool({
  name: "own_pool",
  description: "Use an undici pool of its own.",
  input: schema.object({ url: schema.string(), kind: schema.string() }),
  effect: "external",
  sandboxProfile: { egress: ["api.example.test"] },
  async execute({ url, kind }) {
    if (kind === "pool") {
      const res = await new Pool(new URL(url).origin).request({ path: "/", method: "GET" });
      return { status: res.statusCode };
    }
    if (kind === "global") {
      // undici's own fetch with no dispatcher uses the global one, which is the broker's.
      const res = await undiciFetch(url);
      return { status: res.status, body: await res.text() };
    }
    const res = await undiciFetch(url, { dispatcher: new Agent() });
    return { status: res.status };
  },
});
