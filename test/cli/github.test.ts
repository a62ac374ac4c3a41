import { describe, expect, it } from "vitest";
import { annotation, diagnosticAnnotation, escapeData, escapeProperty } from "../../compiler/cli/github.js";
import { error } from "../../compiler/diagnostics.js";

describe("GitHub Actions annotations", () => {
  it("escapes % first, then CR and LF, in message data", () => {
    expect(escapeData("100%\r\nnext")).toBe("100%25%0D%0Anext");
  });

  it("escapes : and , in property values as well", () => {
    expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
  });

  it("formats ::level with file, line, col and title", () => {
    expect(annotation("error", "bad, very: bad", { file: "tools/a,b.ts", line: 3, col: 5, title: "CAVE3005" })).toBe(
      "::error file=tools/a%2Cb.ts,line=3,col=5,title=CAVE3005::bad, very: bad\n",
    );
    expect(annotation("warning", "plain")).toBe("::warning::plain\n");
  });

  it("turns a diagnostic into one line carrying its hint", () => {
    const line = diagnosticAnnotation(
      error("CAVE3005", 'timeout of tool "x" is computed', "Write a literal.", {
        file: "tools/x.ts",
        line: 4,
        column: 9,
      }),
    );
    expect(line).toBe(
      '::error file=tools/x.ts,line=4,col=9,title=CAVE3005::timeout of tool "x" is computed%0Ahint: Write a literal.\n',
    );
    expect(line.split("\n")).toHaveLength(2);
  });
});
