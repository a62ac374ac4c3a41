/**
 * One usage line per command, in a module that loads nothing: the command table and `--help` need every
 * line, and loading every command to get them would load the whole compiler (TypeScript, esbuild, the
 * file globber) into `cave serve` and `cave call`, which need none of it.
 */
export const BUILD_USAGE =
  "cave build [--root DIR] [--check | --frozen | --write] [--json | --format text|json|github]";
export const DIFF_USAGE = "cave diff [BASE] [HEAD] [--root DIR] [--format text|markdown|json] [--json] [--exit-code]";
export const VERIFY_USAGE = "cave verify [--root DIR] [--lock FILE] [--json] [--write-manifest]";
export const EXPLAIN_USAGE = "cave explain TOOL [--root DIR] [--lock FILE] [--json]";
export const CALL_USAGE = "cave call TOOL ['<json arguments>'] [--fixture] [--root DIR] [--json]";
export const SERVE_USAGE =
  "cave serve [--root DIR] [--fixture] [--http HOST:PORT [--stateless]] [--token-env NAME] [--allow-host H]... [--allow-origin O]... [--max-calls N] [--max-wall-ms MS] [--run-id ID] [--receipts FILE] [--heartbeat-ms MS]";
export const RUNS_USAGE =
  "cave runs list|show RUN|expire --older-than DURATION [--include-unfinished] [--root DIR] [--journal SETTING] [--json]";
export const VERSION_USAGE = "cave --version | -v   (print the version of cave, from its package.json)";
