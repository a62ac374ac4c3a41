export { EgressChannel, CHILD_SOCKET_PATH, type EgressScope } from "./channel.js";
export {
  resolveEgressOptions,
  secretProvider,
  type EgressOptions,
  type ResolvedEgressOptions,
  type SecretProvider,
} from "./options.js";
export { secretValues, type SecretValues } from "./secrets.js";
export { upstreamAgents, type UpstreamAgents } from "./upstream.js";
