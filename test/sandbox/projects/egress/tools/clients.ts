import { Octokit } from "@octokit/core";
import axios from "axios";
import { schema, tool } from "cave";
import got from "got";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";

const EGRESS = ["api.example.test", "hooks.example.test", "secure.example.test", "*.wild.example.test", "a.listed.example.test"];

/** Sends one request with the named client and returns what came back; errors are not caught (the outcome says how it was stopped). */
async function send(client: string, url: string, method: string, body: string | undefined): Promise<{ status: number; body: string }> {
  switch (client) {
    case "fetch": {
      const res = await fetch(url, { method, body });
      return { status: res.status, body: await res.text() };
    }
    case "axios": {
      const res = await axios.request({ url, method, data: body, responseType: "text", transformResponse: (text: string) => text, validateStatus: () => true });
      return { status: res.status, body: res.data as string };
    }
    case "got": {
      const res = await got(url, { method: method as "GET", body, throwHttpErrors: false, retry: { limit: 0 } });
      return { status: res.statusCode, body: res.body };
    }
    case "octokit": {
      const parsed = new URL(url);
      const octokit = new Octokit({ baseUrl: `${parsed.origin}/echo` });
      const res = await octokit.request("GET /repos/{owner}/{repo}", { owner: "cave", repo: "build" });
      return { status: res.status, body: JSON.stringify(res.data) };
    }
    case "http-agent": {
      // A custom https.Agent (or http.Agent) of the tool's own: the request still goes through the broker.
      const mod = url.startsWith("https:") ? https : http;
      const agent = new mod.Agent({ keepAlive: true });
      return await new Promise((resolve, reject) => {
        const req = mod.request(url, { method, agent }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end(body);
      });
    }
    case "http2": {
      const session = http2.connect(url);
      session.close();
      return { status: 0, body: "reached" };
    }
    case "websocket": {
      new WebSocket(url.replace(/^http/, "ws"));
      return { status: 0, body: "reached" };
    }
    case "tcp": {
      const parsed = new URL(url);
      net.connect(Number(parsed.port || 80), parsed.hostname);
      return { status: 0, body: "reached" };
    }
    case "stream": {
      // A large body read in chunks and counted, never held whole.
      const res = await fetch(url);
      let bytes = 0;
      for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
      return { status: res.status, body: String(bytes) };
    }
    default:
      throw new Error(`unknown client ${client}`);
  }
}

export const egressCall = tool({
  name: "egress_call",
  description: "Send one HTTP request with a named client library.",
  input: schema.object({ client: schema.string(), url: schema.string(), method: schema.optional(schema.string()), body: schema.optional(schema.string()) }),
  effect: "external",
  timeout: 20000,
  sandboxProfile: { egress: EGRESS, secrets: { API_TOKEN: { hosts: ["api.example.test"] } } },
  async execute({ client, url, method, body }) {
    return send(client, url, method ?? "GET", body);
  },
});
