import type { Agent as HttpAgent, ClientRequest } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import { http, https, net, tls } from "../builtins.js";

/** The broker's keep-alive connections upstream, shared by every channel of a dispatcher (the policy is checked per request, before a connection is chosen). */
export interface UpstreamAgents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
}

export function upstreamAgents(): UpstreamAgents {
  return { http: new (http().Agent)({ keepAlive: true }), https: new (https().Agent)({ keepAlive: true }) };
}

/** One request upstream, to the checked address; TLS verified against Node's roots plus `ca`, for the host's name. */
export function openUpstream(
  agents: UpstreamAgents,
  target: {
    scheme: "http" | "https";
    host: string;
    address: string;
    port: number;
    method: string;
    path: string;
    headers: string[];
    ca: readonly string[];
  },
): ClientRequest {
  const common = {
    host: target.address,
    port: target.port,
    method: target.method,
    path: target.path,
    headers: target.headers,
    setHost: false,
  };
  if (target.scheme === "http") return http().request({ ...common, agent: agents.http });
  return https().request({
    ...common,
    agent: agents.https,
    // SNI and the certificate check use the host's name; an IP literal host is checked against the certificate's IP names.
    servername: net().isIP(target.host) === 0 ? target.host : undefined,
    ca: target.ca.length === 0 ? undefined : [...tls().rootCertificates, ...target.ca],
  });
}
