import type { CodeEntry } from "./types.js";

/** CAVE1xxx: authoring rules. Thrown by tool()/artifact()/agent()/schema at definition time and reported statically by `cave build`. */
export const SDK_CODES = {
  CAVE1001: {
    title: "Invalid tool name",
    doc: "Tool names must match ^[a-zA-Z][a-zA-Z0-9_-]{0,127}$ (a letter first, then letters, digits, '_' or '-', 128 characters at most).",
  },
  CAVE1002: {
    title: "Reserved tool name",
    doc: "Names beginning with cave_ are reserved for framework tools (cave_page, cave_recover, cave_skill, memory tools). Rename the tool.",
  },
  CAVE1003: {
    title: "Missing effect",
    doc: "`effect` has no default: say what the tool does, one of read, write, idempotent or external.",
  },
  CAVE1004: { title: "Invalid effect", doc: "`effect` must be one of read, write, idempotent or external." },
  CAVE1005: {
    title: "Invalid timeout",
    doc: "`timeout` is in milliseconds: a positive integer no larger than 2147483647 (what a timer can hold). It defaults to 30000.",
  },
  CAVE1006: {
    title: "Invalid result policy",
    doc: "`result` must be one of auto, inline, page, compress, exact_ccr, or an artifact(...) value. It defaults to auto.",
  },
  CAVE1007: {
    title: "Unknown option",
    doc: "An option object has a key the SDK does not know. Options are never silently ignored: fix the spelling or remove the key.",
  },
  CAVE1008: {
    title: "Network access refused",
    doc: "`sandboxProfile.network: true` would request unbounded egress, which the sandbox never grants; it fails closed. List the hosts the tool reaches in `sandboxProfile.egress` (they go through the host's egress broker) and the credentials it needs in `sandboxProfile.secrets`.",
  },
  CAVE1009: {
    title: "Denied environment name",
    doc: "A sandbox profile listed an environment variable whose name looks like a secret, signing, deployment, bootstrap or database setting, or one that Node, OpenSSL or the C library read at start-up. Such names never reach a tool. Pass the value as an argument; a credential an API needs goes in `sandboxProfile.secrets`, which the egress broker adds to requests to its hosts without the tool ever seeing it.",
  },
  CAVE1010: {
    title: "Nested tools are not flat",
    doc: "A tool listed in `nestedTools` has nested tools of its own. Nesting is one level deep: list the grandchildren on the composite directly.",
  },
  CAVE1011: {
    title: "Read composite with an effectful child",
    doc: "A `read` composite may only contain `read` tools. Declare the composite with the strongest effect of its children, or remove the effectful child.",
  },
  CAVE1012: {
    title: "Invalid schema",
    doc: "`input`/`output` must be a schema.* value, a Standard Schema v1 object (`~standard`), or a validation-only validator together with `inputJSONSchema`/`outputJSONSchema` (for valibot, `@valibot/to-json-schema`). `inputJSONSchema`/`outputJSONSchema` describe a side the validator cannot describe itself (validation-only, or a transform such as zod's `.transform`); the build refuses one given for a side the library describes.",
  },
  CAVE1013: {
    title: "Invalid schemaSemanticsSHA256",
    doc: "`schemaSemanticsSHA256` must be 64 lowercase hexadecimal characters: the SHA-256 of the validator code, its dependencies and captured state.",
  },
  CAVE1014: {
    title: "Invalid description",
    doc: "`description` is required: a non-empty string the model reads to decide when to call the tool.",
  },
  CAVE1015: { title: "Missing execute", doc: "`execute` must be a function (sync or async) that implements the tool." },
  CAVE1016: {
    title: "Invalid allowRepeat",
    doc: "`allowRepeat` must be a boolean. It defaults to false: identical repeated calls are stopped.",
  },
  CAVE1017: {
    title: "Invalid sandbox mode",
    doc: '`sandbox` must be "required" (the default: the tool runs in a restricted child process) or "none" (in-process, for trusted tools and tests).',
  },
  CAVE1018: {
    title: "Invalid sandbox profile",
    doc: "`sandboxProfile` is an object with optional `network` (false), `env` (an array of unique environment variable names matching ^[A-Za-z_][A-Za-z0-9_]*$), `egress` and `secrets` (CAVE1260-CAVE1264).",
  },
  CAVE1019: {
    title: "Invalid nestedTools",
    doc: "`nestedTools` must be an array of tool() definitions with distinct names, none of them the composite itself.",
  },
  CAVE1020: {
    title: "Invalid artifact option",
    doc: "artifact() takes `strategy` (page, compress or exact_ccr; default page), `maxInlineTokens` (a positive integer; default 1200) and `recovery` (exact_ccr or none; default exact_ccr).",
  },
  CAVE1021: {
    title: "Invalid agent name",
    doc: "Agent names follow the tool name pattern ^[a-zA-Z][a-zA-Z0-9_-]{0,127}$.",
  },
  CAVE1022: {
    title: "Duplicate tool name on an agent",
    doc: "Two tools on one agent share a name; the model could not tell them apart. Rename one of them.",
  },
  CAVE1023: { title: "Invalid agent tools", doc: "`tools` must be a non-empty array of tool() definitions." },
  CAVE1024: {
    title: "Options must be an object",
    doc: "tool(), artifact() and agent() take one plain object of options.",
  },
  CAVE1025: {
    title: "Invalid schema option",
    doc: "A schema.* builder received an option that is not a JSON Schema keyword for that type, or a value of the wrong kind. Check the spelling (minLength, maxItems, format...).",
  },
  CAVE1160: {
    title: "Invalid filesystem scope",
    doc: "`sandboxProfile.fs` is `{ read?: string[], write?: string[] }`; each scope is a path relative to the project root (`data/orders`) or under a named runtime setting (`$ORDERS_DIR/archive`, the name in UPPER_SNAKE_CASE and not a secret-like name). Absolute paths, `..`, backslashes, commas and duplicates are refused: a lock never holds a machine's paths and a scope never leaves its base.",
  },
  CAVE1161: {
    title: "Write scope is not a directory",
    doc: "A write scope must name a directory: it is created at deploy and mounted read-write. A glob or a single file cannot be mounted read-write safely (a write-then-rename fails with EBUSY; SQLite's -wal and -journal files would be lost), and the whole project would include its lock and build folder. Name the directory the tool writes in; list files it only reads under read.",
  },
  CAVE1162: {
    title: "Read tool declares write scopes",
    doc: "A tool with effect read has no durable side effect by contract, so it may not declare `sandboxProfile.fs.write`. Declare the effect it has (write, idempotent or external), or drop the write scopes.",
  },
  CAVE1163: {
    title: "Filesystem scopes without the sandbox",
    doc: '`sandboxProfile.fs` is enforced by the sandbox; a tool with `sandbox: "none"` runs in the host process and can touch every file the host can, so its scopes would only mislead a reviewer. Drop `sandbox: "none"`, or drop the scopes.',
  },
  CAVE1260: {
    title: "Invalid egress entry",
    doc: "`sandboxProfile.egress` is an array of distinct hosts the tool may reach through the egress broker: a lowercase host name or IPv4 address with an optional port (`api.github.com`, `hooks.example.com:8443`), or one leading wildcard label (`*.example.com`, which stands for exactly one label). Without a port an entry allows ports 443 and 80. No scheme, path or user.",
  },
  CAVE1261: {
    title: "Egress on a read tool",
    doc: "Only tools whose effect is not `read` may declare `sandboxProfile.egress` or `secrets`: a tool that reaches the network leaves the process, while read tools run in fixture mode and may be speculated. Declare `external`, or `write` / `idempotent` when the call changes something.",
  },
  CAVE1262: {
    title: "Invalid secret",
    doc: "`sandboxProfile.secrets` maps secret names (environment variable names) to `{ hosts, header, format }`: `hosts` lists where the broker sends it (egress entries), `header` the lowercase header it goes in (default `authorization`; not a framing or hop-by-hop header), `format` the header value with `{}` once where the value goes (default `Bearer {}`). A secret may not also be in `env`.",
  },
  CAVE1263: {
    title: "Secret host not in egress",
    doc: "A secret names a host the tool may not reach: every host in a secret's `hosts` must also be allowed by `sandboxProfile.egress`. Add it there, or remove it from the secret.",
  },
  CAVE1264: {
    title: "Egress with sandbox none",
    doc: '`sandboxProfile.egress` and `secrets` are enforced by the sandbox\'s egress broker; a tool with `sandbox: "none"` runs in the host process and reaches every host, so a scope there would promise what nothing enforces. Drop `sandbox: "none"`, or drop the scope.',
  },
} as const satisfies Record<string, CodeEntry>;
