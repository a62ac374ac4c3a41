/**
 * Messages between the evaluator and its child process, framed as the sandbox's channel is (a 4-byte length, then
 * UTF-8 JSON) on the child's fd 3. The child's side is untrusted: a module it imports may have patched anything, so
 * the parent decodes every field (decode.ts) before use, and takes a reply only with the nonce of the request it
 * answers (a module cannot know the nonce of a request sent after it was imported).
 */

/** The argument (after the script) by which the parent lets a child load native addons. */
export const ADDONS_ARGUMENT = "cave-allow-addons";

/** The child's end of the channel. */
export const CHANNEL_FD = 3;
/** A request names files and folders; it is never large. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** A reply carries a module's definitions (schemas included) as data. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * Builtin modules the child loads before any module runs, so that the realm guard covers them from the start (a
 * builtin loaded first by a module retires the child: that module could have changed it for the next).
 */
export const PRELOADED_BUILTINS = [
  "assert",
  "async_hooks",
  "buffer",
  "child_process",
  "crypto",
  "diagnostics_channel",
  "dns",
  "events",
  "fs",
  "fs/promises",
  "http",
  "https",
  "module",
  "net",
  "os",
  "path",
  "path/posix",
  "path/win32",
  "perf_hooks",
  "process",
  "punycode",
  "querystring",
  "readline",
  "stream",
  "stream/promises",
  "stream/web",
  "string_decoder",
  "timers",
  "timers/promises",
  "tls",
  "tty",
  "url",
  "util",
  "util/types",
  "v8",
  "vm",
  "worker_threads",
  "zlib",
] as const;

/** Parent -> child, once, before any import: import the build's SDK module, freeze what it exports and share it. */
export interface SdkRequest {
  readonly type: "sdk";
  readonly nonce: string;
  /** The file URL of the SDK module in the private copy: the URL every bundle's import of it resolves to. */
  readonly url: string;
}

/** Parent -> child: import one staged bundle and report its definitions. */
export interface ImportRequest {
  readonly type: "import";
  /** Fresh and random per request: the reply must carry it. */
  readonly nonce: string;
  readonly module: string;
  /** What to call the bundle in messages: its path in the build folder. */
  readonly label: string;
  /** The bundle's file URL in the private copy of the build folder's files. */
  readonly url: string;
  /** The private copy's folder (with a trailing separator) and its file URL, left out of messages. */
  readonly base: string;
  readonly baseUrl: string;
  /**
   * The child shares one frozen SDK module between the bundles it imports. Only a clean success is reported then;
   * anything else is answered "untrusted", and the parent imports the bundle again in a child of its own.
   */
  readonly sharedSdk: boolean;
}

export type ParentMessage = ImportRequest | SdkRequest;

/** Child -> parent: every reply but "ready" carries the nonce of the request it answers. */
export type ChildMessage = { readonly type: "ready" } | (ChildReply & { readonly nonce: string });

/** What the child answers to a request. */
export type ChildReply =
  /** The answer to an SdkRequest: whether later imports may use the shared SDK, and if not why (for tests and bug reports). */
  | { readonly type: "sdk"; readonly shared: boolean; readonly message: string | null }
  | { readonly type: "imported"; readonly module: string; readonly exports: readonly ExportReport[] }
  /** `rule.subject` is the CaveError's subject (`tool "name"`), by which the parent locates it. */
  /** `stack`: the thrown error's raw V8 stack (paths of the private copy), which the parent maps to the original line. */
  | {
      readonly type: "threw";
      readonly module: string;
      readonly message: string;
      readonly exitCode: number | null;
      readonly rule: { readonly code: string; readonly hint: string; readonly subject: string } | null;
      readonly stack: string | null;
    }
  /** A bundle evaluated with the shared SDK threw, or something threw outside it meanwhile: judge it in a child of its own. */
  | { readonly type: "untrusted"; readonly module: string };

export type ExportReport =
  | { readonly exportName: string; readonly kind: "tool"; readonly tool: RawTool }
  | { readonly exportName: string; readonly kind: "agent"; readonly agent: RawAgent }
  /** `code` and `hint`, when not null, replace CAVE5004's generic ones (a rule only evaluation can check). */
  | {
      readonly exportName: string;
      readonly kind: "unreadable";
      readonly what: "tool" | "agent";
      readonly message: string;
      readonly code: string | null;
      readonly hint: string | null;
    };

export type RawSchema =
  | { readonly kind: "typebox"; readonly jsonSchema: unknown }
  | { readonly kind: "standard"; readonly vendor: unknown; readonly jsonSchema: unknown };

/** A tool definition as read in the child: values as found, checked by the parent. */
export interface RawTool {
  readonly name: unknown;
  readonly description: unknown;
  readonly effect: unknown;
  readonly timeout: unknown;
  readonly allowRepeat: unknown;
  readonly sandbox: unknown;
  readonly network: unknown;
  readonly env: unknown;
  readonly egress: unknown;
  readonly secrets: unknown;
  /** sandboxProfile.fs as tool() normalised it ({ read, write } of scope texts), or null. */
  readonly fs: unknown;
  /** sandboxProfile.addons as tool() normalised it (false unless true). */
  readonly addons: unknown;
  readonly nestedTools: unknown;
  readonly result: unknown;
  readonly input: RawSchema | null;
  readonly output: RawSchema | null;
  readonly schemaSemanticsSHA256: unknown;
}

export interface RawAgent {
  readonly name: unknown;
  readonly description: unknown;
  readonly tools: unknown;
}
