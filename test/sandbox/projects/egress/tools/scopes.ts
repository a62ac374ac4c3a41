import { schema, tool } from "cave";
import { existsSync } from "node:fs";

/** What a tool can see of a socket path and what a request to a URL gives, for the two-scopes test. */
async function probe(url: string, paths: readonly string[]): Promise<{ status: number | string; body: string; visible: boolean[] }> {
  const visible = paths.map((path) => {
    try {
      return existsSync(path);
    } catch {
      return false;
    }
  });
  try {
    const res = await fetch(url);
    return { status: res.status, body: await res.text(), visible };
  } catch (thrown) {
    const error = thrown as Error & { cause?: Error & { code?: string } };
    return { status: error.cause?.code ?? "error", body: error.cause?.message ?? error.message, visible };
  }
}

const input = schema.object({ url: schema.string(), paths: schema.array(schema.string()) });

export const scopeA = tool({
  name: "scope_a",
  description: "Reach hosts under scope A.",
  input,
  effect: "external",
  sandboxProfile: { egress: ["api.example.test"], secrets: { TOKEN_A: { hosts: ["api.example.test"], header: "x-key", format: "{}" } } },
  async execute({ url, paths }) {
    return probe(url, paths);
  },
});

export const scopeB = tool({
  name: "scope_b",
  description: "Reach hosts under scope B.",
  input,
  effect: "external",
  sandboxProfile: { egress: ["hooks.example.test"], secrets: { TOKEN_B: { hosts: ["hooks.example.test"], header: "x-key", format: "{}" } } },
  async execute({ url, paths }) {
    return probe(url, paths);
  },
});
