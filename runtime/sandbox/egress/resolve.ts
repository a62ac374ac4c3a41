import { dns, net } from "../builtins.js";
import { isInternalAddress } from "./addresses.js";
import type { Refusal } from "./refusal.js";

export type Resolved =
  | { readonly ok: true; readonly address: string; readonly port: number }
  | { readonly ok: false; readonly refusal: Refusal };

/**
 * The address the broker connects to for host:port, resolved here, never by the child. An address inside the
 * host's networks (loopback, private, link-local...) is used only when the host is listed by its exact name
 * (`exact`); a pattern or a name that merely resolves there is refused. The broker connects to the address it
 * checked, so a second DNS answer cannot move the connection elsewhere.
 */
export async function resolveTarget(
  host: string,
  port: number,
  exact: boolean,
  overrides: ReadonlyMap<string, { readonly address: string; readonly port: number | null }>,
): Promise<Resolved> {
  const named = `${host}:${port}`;
  const override = overrides.get(host);
  let addresses: string[];
  if (override !== undefined) addresses = [override.address];
  else if (net().isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await dns().lookup(host, { all: true, verbatim: true })).map((found) => found.address);
    } catch (thrown) {
      const code = (thrown as NodeJS.ErrnoException).code ?? "ENOTFOUND";
      return {
        ok: false,
        refusal: {
          kind: "failed",
          route: named,
          code,
          message: `egress to ${named} failed: its name did not resolve (${code})`,
        },
      };
    }
  }
  const usable = exact ? addresses : addresses.filter((address) => !isInternalAddress(address));
  const address = usable[0];
  if (address === undefined) {
    return {
      ok: false,
      refusal: {
        kind: "refused",
        route: named,
        message: `egress to ${named} was refused: it resolves to an internal address (${addresses.join(", ")}: loopback, private or link-local), which only a host listed by its exact name in sandboxProfile.egress may reach`,
      },
    };
  }
  return { ok: true, address, port: override?.port ?? port };
}
