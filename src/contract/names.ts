/** The contract's tool name pattern. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,127}$/;

/** Names with this prefix belong to the framework (cave_page, cave_recover, cave_skill, memory tools). */
export const RESERVED_PREFIX = "cave_";

/** The largest delay a Node timer can hold; longer timeouts would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

export const DEFAULT_TIMEOUT_MS = 30_000;

export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const SEMANTICS_HASH_PATTERN = /^[0-9a-f]{64}$/;
