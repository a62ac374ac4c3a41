import { schema, tool } from "cave";
import { called, loaded, probe } from "./probe.js";

loaded("effects");

export const writeTool = tool({
  name: "write_tool",
  description: "Write something.",
  input: schema.object({ id: schema.string() }),
  effect: "write",
  sandbox: "none",
  execute({ id }) {
    called("write_tool");
    return { wrote: id };
  },
});

export const idemTool = tool({
  name: "idem_tool",
  description: "Set something.",
  input: schema.object({ id: schema.string() }),
  effect: "idempotent",
  sandbox: "none",
  execute({ id }) {
    called("idem_tool");
    const left = (probe().flags.idemTransientLeft as number | undefined) ?? 0;
    if (left > 0) {
      probe().flags.idemTransientLeft = left - 1;
      throw Object.assign(new Error("fetch failed"), { cause: { code: "UND_ERR_SOCKET" } });
    }
    return { set: id };
  },
});

export const extTool = tool({
  name: "ext_tool",
  description: "Send something out.",
  input: schema.object({ id: schema.string() }),
  effect: "external",
  sandbox: "none",
  execute({ id }) {
    called("ext_tool");
    if (probe().flags.extTransient === true) throw Object.assign(new Error("connection reset"), { code: "ECONNRESET" });
    return { sent: id };
  },
});

/** A write that never finishes: its timeout leaves the effect unknown. */
export const writeHang = tool({
  name: "write_hang",
  description: "Start a write and never finish.",
  effect: "write",
  sandbox: "none",
  timeout: 300,
  execute() {
    called("write_hang");
    return new Promise<never>(() => {});
  },
});
