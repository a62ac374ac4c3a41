import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { thrownMessage, thrownText, UNREADABLE } from "../../src/contract/thrown-message.mjs";

describe("the thrown-value helper", () => {
  it("is the same bytes in src/contract and in the sandbox child's folder (the child may read only that folder)", () => {
    const shared = readFileSync(new URL("../../src/contract/thrown-message.mjs", import.meta.url), "utf8");
    expect(readFileSync(new URL("../../runtime/sandbox/child/thrown-message.mjs", import.meta.url), "utf8")).toBe(
      shared,
    );
  });

  it("thrownText: an Error's message, anything else as text", () => {
    expect(thrownText(new TypeError("bad"))).toBe("bad");
    expect(thrownText("plain")).toBe("plain");
    expect(thrownText(42)).toBe("42");
  });

  it("thrownMessage: the name unless plain, capped, never throwing", () => {
    expect(thrownMessage(new Error("x"))).toBe("x");
    expect(thrownMessage(new RangeError("x"))).toBe("RangeError: x");
    expect(thrownMessage(new Error("x"), { plainName: true })).toBe("Error: x");
    expect(thrownMessage("y".repeat(1001))).toBe(`${"y".repeat(1000)}…`);
    expect(thrownMessage("y".repeat(20), { limit: 5 })).toBe("yyyyy…");
    const hostile = {
      toString: () => {
        throw new Error("no");
      },
    };
    expect(thrownMessage(hostile)).toBe(UNREADABLE);
    const error = new Error("z");
    Object.defineProperty(error, "message", {
      get: () => {
        throw new Error("no");
      },
    });
    expect(thrownMessage(error)).toBe(UNREADABLE);
  });
});
