import type { BlockList } from "node:net";
import { net } from "../builtins.js";

/**
 * Addresses the broker never connects to for a host reached only by a pattern or a name that happens to resolve
 * there: loopback, private (RFC 1918, unique-local), link-local (cloud metadata lives at 169.254.169.254),
 * carrier-grade NAT, "this network", multicast, reserved and the IPv6 forms that embed an IPv4 one. A host listed
 * by its exact name may still resolve to one (a service on the host's own network, a test server on loopback).
 */
let internalNetworks: BlockList | undefined;

/** The list above, made on the broker's first check (node:net loads then: runtime/sandbox/builtins.ts). */
function internal(): BlockList {
  if (internalNetworks !== undefined) return internalNetworks;
  const list = new (net().BlockList)();
  for (const [network, prefix] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ] as const) {
    list.addSubnet(network, prefix, "ipv4");
  }
  for (const [network, prefix] of [
    ["::", 128],
    ["::1", 128],
    ["fc00::", 7],
    ["fe80::", 10],
    ["ff00::", 8],
    ["64:ff9b::", 96],
    ["2002::", 16],
  ] as const) {
    list.addSubnet(network, prefix, "ipv6");
  }
  internalNetworks = list;
  return list;
}

/** Whether `address` (an IP literal) is internal in the sense above; anything that is not an IP literal counts as internal. */
export function isInternalAddress(address: string): boolean {
  const family = net().isIP(address);
  if (family === 0) return true;
  if (family === 4) return internal().check(address, "ipv4");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return internal().check(mapped[1]!, "ipv4");
  return internal().check(address, "ipv6");
}
