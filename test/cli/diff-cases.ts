import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "../../compiler/build.js";
import { REPO_ROOT } from "../support/golden.js";
import { copyProject } from "../support/projects.js";

/**
 * The golden cases of `cave diff`, one per diff class. Each is an edit of the small project in
 * test/cli/projects/diff-base; fixtures/diff/<case>/base.lock and head.lock are the locks the real
 * compiler writes for the project before and after the edit (never written by hand). They are
 * regenerated with CAVE_UPDATE_GOLDEN=1 (test/cli/diff-golden.test.ts calls writeCaseLocks).
 */
export const BASE_PROJECT = "test/cli/projects/diff-base";
export const DIFF_FIXTURES = join(REPO_ROOT, "fixtures", "diff");

type Edit =
  | { readonly file: string; readonly from: string; readonly to: string }
  | { readonly file: string; readonly write: string };

export interface DiffCase {
  readonly name: string;
  /** What the case shows, for the reader of the fixture. */
  readonly about: string;
  /** Changes the diff must contain, as "kind:impact:subject". */
  readonly shows: readonly string[];
  readonly edits: readonly Edit[];
  /** Edits that make the base (default: the base project as it is), for a case that takes something away. */
  readonly baseEdits?: readonly Edit[];
}

const LOOKUP_INPUT = 'input: schema.object({ id: schema.string({ maxLength: 20, pattern: "^[A-Z0-9-]+$" }) }),';
const LOOKUP_OUTPUT_STATUS = 'status: schema.union([schema.literal("open"), schema.literal("shipped")]),';

export const DIFF_CASES: readonly DiffCase[] = [
  { name: "unchanged", about: "the same project built twice: no changes", shows: [], edits: [] },
  {
    name: "tool-added",
    about: "a new write tool in an existing module",
    shows: ["tool-added:risky:reopen_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: "export const cancelOrder = tool({",
        to: 'export const reopenOrder = tool({\n  name: "reopen_order",\n  description: "Reopen a cancelled order.",\n  input: schema.object({ id: schema.string({ maxLength: 20 }) }),\n  effect: "write",\n  execute({ id }) {\n    return { id, reopened: true };\n  },\n});\n\nexport const cancelOrder = tool({',
      },
    ],
  },
  {
    name: "tool-removed",
    about: "a tool deleted (its module goes with it)",
    shows: ["tool-removed:breaking:send_email"],
    edits: [{ file: "tools/notify.ts", write: "export {};\n" }],
  },
  {
    name: "tool-renamed",
    about: "lookup_order renamed to get_order, same export",
    shows: ["tool-renamed:breaking:get_order"],
    edits: [{ file: "tools/orders.ts", from: 'name: "lookup_order",', to: 'name: "get_order",' }],
  },
  {
    name: "effect-escalated",
    about: "a read tool becomes write",
    shows: ["effect:risky:lookup_order"],
    edits: [{ file: "tools/orders.ts", from: 'effect: "read",', to: 'effect: "write",' }],
  },
  {
    name: "effect-de-escalated",
    about: "a write tool becomes idempotent",
    shows: ["effect:info:cancel_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: 'effect: "write",\n  timeout: 10_000,',
        to: 'effect: "idempotent",\n  timeout: 10_000,',
      },
    ],
  },
  {
    name: "input-breaking",
    about: "a new required input field and a tighter maxLength",
    shows: ["input-schema:breaking:lookup_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: LOOKUP_INPUT,
        to: 'input: schema.object({ id: schema.string({ maxLength: 12, pattern: "^[A-Z0-9-]+$" }), tenant: schema.string() }),',
      },
    ],
  },
  {
    name: "input-compatible",
    about: "a new optional input field and a looser maxLength",
    shows: ["input-schema:compatible:lookup_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: LOOKUP_INPUT,
        to: 'input: schema.object({ id: schema.string({ maxLength: 40, pattern: "^[A-Z0-9-]+$" }), includeItems: schema.optional(schema.boolean()) }),',
      },
    ],
  },
  {
    name: "input-unclassified",
    about: "a changed regex pattern: cave diff cannot tell whether it accepts less",
    shows: ["input-schema:unclassified:lookup_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: LOOKUP_INPUT,
        to: 'input: schema.object({ id: schema.string({ maxLength: 20, pattern: "^[A-Z][A-Z0-9-]*$" }) }),',
      },
    ],
  },
  {
    name: "output-breaking",
    about: "the result may hold a new status, and loses its total",
    shows: ["output-schema:breaking:lookup_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: LOOKUP_OUTPUT_STATUS,
        to: 'status: schema.union([schema.literal("open"), schema.literal("shipped"), schema.literal("lost")]),',
      },
      { file: "tools/orders.ts", from: "    total: schema.number({ minimum: 0 }),\n", to: "" },
      { file: "tools/orders.ts", from: 'status: "open" as const, total: 10 };', to: 'status: "open" as const };' },
    ],
  },
  {
    name: "output-compatible",
    about: "the result gains a required field and loses a status it could hold",
    shows: ["output-schema:compatible:lookup_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: LOOKUP_OUTPUT_STATUS,
        to: 'status: schema.union([schema.literal("open")]),\n    currency: schema.string({ maxLength: 3 }),',
      },
      {
        file: "tools/orders.ts",
        from: 'status: "open" as const, total: 10 };',
        to: 'status: "open" as const, currency: "EUR", total: 10 };',
      },
    ],
  },
  {
    name: "timeout",
    about: "a longer timeout",
    shows: ["timeout:info:cancel_order"],
    edits: [{ file: "tools/orders.ts", from: "timeout: 10_000,", to: "timeout: 60_000," }],
  },
  {
    name: "allow-repeat",
    about: "identical repeated calls allowed",
    shows: ["allow-repeat:risky:lookup_order"],
    edits: [{ file: "tools/orders.ts", from: 'effect: "read",', to: 'effect: "read",\n  allowRepeat: true,' }],
  },
  {
    name: "result-policy",
    about: "a result policy changed from page to inline",
    shows: ["result-policy:info:search_docs", "result-plan:info:search_docs"],
    edits: [{ file: "tools/search.ts", from: 'result: "page",', to: 'result: "inline",' }],
  },
  {
    name: "sandbox-addons",
    about: "a sandboxed tool may now load native addons",
    shows: ["sandbox-addons:risky:send_email"],
    edits: [{ file: "tools/notify.ts", from: 'env: ["SMTP_HOST"]', to: 'env: ["SMTP_HOST"], addons: true' }],
  },
  {
    name: "sandbox-env",
    about: "a new environment name in a sandbox profile",
    shows: ["sandbox-env-added:risky:send_email"],
    edits: [{ file: "tools/notify.ts", from: 'env: ["SMTP_HOST"]', to: 'env: ["SMTP_HOST", "SMTP_USER"]' }],
  },
  {
    name: "egress",
    about: "scoped egress: two hosts (one a wildcard) and a credential sent to one of them, each a new power",
    shows: [
      "egress-host-added:risky:send_email",
      "secret-added:risky:send_email",
      "secret-host-added:risky:send_email",
    ],
    edits: [
      {
        file: "tools/notify.ts",
        from: 'env: ["SMTP_HOST"]',
        to: 'env: ["SMTP_HOST"], egress: ["api.mail.example.com", "*.hooks.example.com:8443"], secrets: { MAIL_API_KEY: { hosts: ["api.mail.example.com"], header: "x-api-key", format: "{}" } }',
      },
    ],
  },
  {
    name: "sandbox-off",
    about: "a tool leaves the sandbox",
    shows: ["sandbox-mode:risky:send_email"],
    edits: [
      { file: "tools/notify.ts", from: '  sandboxProfile: { env: ["SMTP_HOST"] },\n', to: '  sandbox: "none",\n' },
    ],
  },
  {
    name: "nested-tools",
    about: "a composite may call one more tool",
    shows: ["nested-tool-added:risky:refund_order"],
    edits: [
      {
        file: "tools/refund.ts",
        from: 'import { cancelOrder, lookupOrder } from "./orders.js";',
        to: 'import { cancelOrder, lookupOrder } from "./orders.js";\nimport { sendEmail } from "./notify.js";',
      },
      {
        file: "tools/refund.ts",
        from: "nestedTools: [lookupOrder, cancelOrder],",
        to: "nestedTools: [lookupOrder, cancelOrder, sendEmail],",
      },
    ],
  },
  {
    name: "implementation-only",
    about: "a helper's code changed, no contract did",
    shows: ["implementation:info:lookup_order"],
    edits: [{ file: "lib/format.ts", from: "return id.toUpperCase();", to: "return id.trim().toUpperCase();" }],
  },
  {
    name: "opaque-semantics",
    about: "an opaque (zod) validator's semantics hash changed",
    shows: ["opaque-semantics:unclassified:search_docs"],
    edits: [
      {
        file: "tools/search.ts",
        from: '"1111111111111111111111111111111111111111111111111111111111111111"',
        to: '"2222222222222222222222222222222222222222222222222222222222222222"',
      },
    ],
  },
  {
    name: "agent-tools",
    about: "an agent gets one more tool",
    shows: ["agent-tool-added:risky:support"],
    edits: [
      {
        file: "agent.ts",
        from: 'import { searchDocs } from "./tools/search.js";',
        to: 'import { searchDocs } from "./tools/search.js";\nimport { sendEmail } from "./tools/notify.js";',
      },
      {
        file: "agent.ts",
        from: "tools: [lookupOrder, cancelOrder, refundOrder, searchDocs]",
        to: "tools: [lookupOrder, cancelOrder, refundOrder, searchDocs, sendEmail]",
      },
    ],
  },
  {
    name: "fs-write-added",
    about: "a write tool gains a write scope in the project",
    shows: ["sandbox-fs-added:risky:cancel_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: 'effect: "write",\n  timeout: 10_000,',
        to: 'effect: "write",\n  timeout: 10_000,\n  sandboxProfile: { fs: { write: ["data/orders"] } },',
      },
    ],
  },
  {
    name: "fs-read-added",
    about: "a read tool gains read scopes: a folder, a file and a glob under a named runtime setting",
    shows: ["sandbox-fs-added:risky:lookup_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: 'effect: "read",',
        to: 'effect: "read",\n  sandboxProfile: { fs: { read: ["config", "config/prices.json", "$ORDERS_DIR/exports/*.csv"] } },',
      },
    ],
  },
  {
    name: "fs-scope-removed",
    about: "a write tool loses its write and read scopes",
    shows: ["sandbox-fs-removed:info:cancel_order"],
    baseEdits: [
      {
        file: "tools/orders.ts",
        from: 'effect: "write",\n  timeout: 10_000,',
        to: 'effect: "write",\n  timeout: 10_000,\n  sandboxProfile: { fs: { write: ["$ORDERS_DIR"], read: ["config"] } },',
      },
    ],
    edits: [],
  },
  {
    name: "fs-read-to-write",
    about: "a scope the tool read becomes one it writes: a new power and a reduction",
    shows: ["sandbox-fs-added:risky:cancel_order", "sandbox-fs-removed:info:cancel_order"],
    baseEdits: [
      {
        file: "tools/orders.ts",
        from: 'effect: "write",\n  timeout: 10_000,',
        to: 'effect: "write",\n  timeout: 10_000,\n  sandboxProfile: { fs: { read: ["data/orders"] } },',
      },
    ],
    edits: [
      {
        file: "tools/orders.ts",
        from: 'effect: "write",\n  timeout: 10_000,',
        to: 'effect: "write",\n  timeout: 10_000,\n  sandboxProfile: { fs: { write: ["data/orders"] } },',
      },
    ],
  },
  {
    name: "description",
    about: "a tool's description changed",
    shows: ["description:info:lookup_order"],
    edits: [
      {
        file: "tools/orders.ts",
        from: '"Read one order by id."',
        to: '"Read one order by its id, with its status and total."',
      },
    ],
  },
];

/** Copies the base project, applies the edits (each must match exactly once), and returns the copy's root. */
export function editedProject(edits: readonly Edit[]): string {
  const root = copyProject(BASE_PROJECT);
  for (const edit of edits) {
    const path = join(root, edit.file);
    if ("write" in edit) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, edit.write);
      continue;
    }
    const text = readFileSync(path, "utf8");
    if (text.split(edit.from).length !== 2)
      throw new Error(`diff case edit of ${edit.file} must match exactly once: ${JSON.stringify(edit.from)}`);
    writeFileSync(path, text.replace(edit.from, edit.to));
  }
  return root;
}

/** The lock the compiler writes for a project, or an error naming the case and the diagnostics. */
export async function lockOf(root: string, what: string): Promise<string> {
  const result = await build({ root, write: false });
  if (!result.ok || result.lockText === null)
    throw new Error(
      `${what} does not build: ${result.diagnostics.map((d) => `${d.code} ${d.file}:${d.line} ${d.message}`).join("; ")}`,
    );
  return result.lockText;
}

/** Rebuilds every case's base.lock and head.lock with the real compiler. */
export async function writeCaseLocks(): Promise<void> {
  const baseLock = await lockOf(editedProject([]), "the base project");
  // CAVE_GOLDEN_CASE=<name> regenerates that case only (each case is a build of its own).
  const only = process.env.CAVE_GOLDEN_CASE;
  for (const c of DIFF_CASES.filter((c) => only === undefined || only === "" || c.name === only)) {
    const dir = join(DIFF_FIXTURES, c.name);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "base.lock"),
      c.baseEdits === undefined ? baseLock : await lockOf(editedProject(c.baseEdits), `diff case ${c.name} (base)`),
    );
    writeFileSync(
      join(dir, "head.lock"),
      c.edits.length === 0 ? baseLock : await lockOf(editedProject(c.edits), `diff case ${c.name}`),
    );
  }
}
