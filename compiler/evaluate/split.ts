import { bundleHeader, REQUIRE_SHIM } from "../stage/bundle-file.js";
import { SDK_GLOBAL } from "../stage/sdk-bundle.js";
import { SDK_HANDLE } from "./protocol.js";

/**
 * Every staged bundle begins with its header and the build's SDK prelude (stage/bundle-file.ts). Evaluating that
 * 43 KB prelude again for each module was most of the evaluate pass, so each child evaluates it once (sdkModule)
 * and imports each bundle's body with that one SDK (bundleBody). Nothing is guessed: a bundle is split only if its
 * first bytes are exactly the header and this build's prelude; any other bundle is imported whole, as before.
 */

const SHIM_LINE = `${REQUIRE_SHIM}\n`;

/** The prelude as a module whose default export is the SDK, or undefined if the prelude is not the shape stage makes. */
export function sdkModule(prelude: string): string | undefined {
  return prelude.startsWith(SHIM_LINE) ? `${prelude}\nexport default ${SDK_GLOBAL};\n` : undefined;
}

/**
 * The bundle with its own copy of the SDK replaced by the shared one: the require shim stays (esbuild's code may call
 * require), and `__caveSdk`, the one name the rest of the prelude defines, is imported instead. esbuild keeps user
 * symbols off that name, so the import cannot clash. Undefined unless the bundle starts with header + prelude + "\n",
 * and for code that mentions `import.meta`: its URL (the runtime's too) is the whole bundle's, which a body's is not.
 */
export function bundleBody(module: string, code: string, prelude: string): string | undefined {
  if (sdkModule(prelude) === undefined) return undefined;
  const header = bundleHeader(module);
  const end = header.length + prelude.length;
  if (!(code.startsWith(header) && code.startsWith(prelude, header.length) && code.startsWith("\n", end))) return undefined;
  const rest = code.slice(end + 1);
  if (rest.includes("import.meta")) return undefined;
  return `${SHIM_LINE}import ${SDK_GLOBAL} from ${JSON.stringify(SDK_HANDLE)};\n${rest}`;
}
