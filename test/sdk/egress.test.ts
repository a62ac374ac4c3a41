import { describe, expect, test } from "vitest";
import { tool } from "../../src/index.js";
import { credentialUrl } from "../../src/contract/env-policy.js";
import { coveringEntry, parseEgressEntry } from "../../src/contract/egress.js";
import { sandboxEnv } from "../../runtime/sandbox/env.js";
import { expectRule, validToolOptions } from "./helpers.js";

const subject = 'tool "lookup_order"';
const withProfile =
  (sandboxProfile: unknown, extra: Record<string, unknown> = {}) =>
  () =>
    tool(validToolOptions({ effect: "external", sandboxProfile, ...extra }) as never);

describe("tool(): sandboxProfile.egress", () => {
  test("keeps the hosts as written and fills in each secret's defaults", () => {
    const definition = tool(
      validToolOptions({
        effect: "external",
        sandboxProfile: {
          egress: ["api.github.com", "hooks.example.com:8443", "*.example.com"],
          secrets: { GITHUB_TOKEN: { hosts: ["api.github.com"] } },
        },
      }) as never,
    );
    expect(definition.sandboxProfile.egress).toEqual(["api.github.com", "hooks.example.com:8443", "*.example.com"]);
    expect(definition.sandboxProfile.secrets).toEqual({
      GITHUB_TOKEN: { hosts: ["api.github.com"], header: "authorization", format: "Bearer {}" },
    });
    expect(Object.isFrozen(definition.sandboxProfile.secrets.GITHUB_TOKEN!.hosts)).toBe(true);
  });

  test.each([
    ["https://api.github.com", /no scheme, path or user/],
    ["api.github.com/repos", /no scheme, path or user/],
    ["API.github.com", /write host names in lowercase/],
    ["api.github.com:0", /port "0", which is not a number from 1 to 65535/],
    ["api.github.com:70000", /not a number from 1 to 65535/],
    ["*.*.example.com", /a wildcard other than one leading/],
    ["a.*.example.com", /a wildcard other than one leading/],
    ["*.com", /right under a top-level domain/],
    ["*.10.0.0.1", /wildcard before an IP address/],
    ["-bad-.example.com", /not a valid host name/],
  ])("refuses the entry %s with CAVE1260", (entry, mentions) => {
    expectRule(withProfile({ egress: ["api.github.com", entry] }), {
      code: "CAVE1260",
      subject,
      field: "sandboxProfile.egress[1]",
      mentions,
      hint: /api\.github\.com/,
    });
  });

  test("an entry listed twice is CAVE1260", () => {
    expectRule(withProfile({ egress: ["api.github.com", "api.github.com"] }), {
      code: "CAVE1260",
      subject,
      field: "sandboxProfile.egress[1]",
      mentions: /listed twice/,
      hint: /once/,
    });
  });

  test("a read tool may not declare egress or secrets (CAVE1261)", () => {
    expectRule(withProfile({ egress: ["api.github.com"] }, { effect: "read" }), {
      code: "CAVE1261",
      subject,
      field: "sandboxProfile.egress",
      mentions: /read tool may not declare egress or secrets/,
      hint: /"external"/,
    });
  });

  test.each(["write", "idempotent", "external"])("a %s tool may", (effect) => {
    expect(
      tool(validToolOptions({ effect, sandboxProfile: { egress: ["api.github.com"] } }) as never).sandboxProfile.egress,
    ).toEqual(["api.github.com"]);
  });

  test('egress with sandbox: "none" is CAVE1264: nothing would enforce it', () => {
    expectRule(withProfile({ egress: ["api.github.com"] }, { sandbox: "none" }), {
      code: "CAVE1264",
      subject,
      field: "sandboxProfile.egress",
      mentions: /no effect with sandbox: "none"/,
      hint: /Drop sandbox: "none"/,
    });
  });

  test.each([
    [{ T: { hosts: ["api.github.com"], format: "Bearer" } }, "sandboxProfile.secrets.T.format", /"\{\}" exactly once/],
    [{ T: { hosts: ["api.github.com"], header: "Authorization" } }, "sandboxProfile.secrets.T.header", /lowercase/],
    [{ T: { hosts: ["api.github.com"], header: "host" } }, "sandboxProfile.secrets.T.header", /the broker itself sets/],
    [{ T: { hosts: [] } }, "sandboxProfile.secrets.T.hosts", /no hosts list/],
    [{ "BAD-NAME": { hosts: ["api.github.com"] } }, "sandboxProfile.secrets.BAD-NAME", /not a valid name/],
  ])("refuses the secret %j with CAVE1262", (secrets, field, mentions) => {
    expectRule(withProfile({ egress: ["api.github.com"], secrets }), {
      code: "CAVE1262",
      subject,
      field,
      mentions,
      hint: /./,
    });
  });

  test("a secret that is also in env is CAVE1262: its value never enters the process", () => {
    expectRule(
      withProfile({ egress: ["api.github.com"], env: ["REGION"], secrets: { REGION: { hosts: ["api.github.com"] } } }),
      {
        code: "CAVE1262",
        subject,
        field: "sandboxProfile.secrets.REGION",
        mentions: /both a secret and in sandboxProfile\.env/,
        hint: /Remove it from env/,
      },
    );
  });

  test("a secret sent to a host egress does not allow is CAVE1263; a host covered by a wildcard or a port entry is allowed", () => {
    expectRule(withProfile({ egress: ["api.github.com"], secrets: { T: { hosts: ["uploads.github.com"] } } }), {
      code: "CAVE1263",
      subject,
      field: "sandboxProfile.secrets.T.hosts[0]",
      mentions: /sandboxProfile\.egress does not allow/,
      hint: /Add "uploads\.github\.com"/,
    });
    expect(() =>
      tool(
        validToolOptions({
          effect: "external",
          sandboxProfile: {
            egress: ["*.github.com", "hooks.example.com:8443"],
            secrets: { T: { hosts: ["uploads.github.com", "hooks.example.com:8443"] } },
          },
        }) as never,
      ),
    ).not.toThrow();
    expectRule(withProfile({ egress: ["hooks.example.com:8443"], secrets: { T: { hosts: ["hooks.example.com"] } } }), {
      code: "CAVE1263",
      subject,
      field: "sandboxProfile.secrets.T.hosts[0]",
      mentions: /does not allow/,
      hint: /./,
    });
  });

  test("an unknown secret option is CAVE1007", () => {
    expectRule(
      withProfile({ egress: ["api.github.com"], secrets: { T: { hosts: ["api.github.com"], prefix: "Bearer" } } }),
      { code: "CAVE1007", subject, field: "sandboxProfile.secrets.T.prefix", mentions: /unknown option/, hint: /./ },
    );
  });
});

describe("what an egress entry covers", () => {
  const covers = (entries: string[], host: string, port: number) => coveringEntry(entries, host, port)?.entry;
  test("a host without a port covers 443 and 80 only", () => {
    expect(covers(["api.github.com"], "api.github.com", 443)).toBe("api.github.com");
    expect(covers(["api.github.com"], "api.github.com", 80)).toBe("api.github.com");
    expect(covers(["api.github.com"], "api.github.com", 8443)).toBeUndefined();
    expect(covers(["api.github.com:8443"], "api.github.com", 443)).toBeUndefined();
  });
  test("a wildcard covers exactly one label", () => {
    expect(covers(["*.example.com"], "a.example.com", 443)).toBe("*.example.com");
    expect(covers(["*.example.com"], "example.com", 443)).toBeUndefined();
    expect(covers(["*.example.com"], "a.b.example.com", 443)).toBeUndefined();
    expect(covers(["*.example.com"], "aexample.com", 443)).toBeUndefined();
  });
  test("IPv4 literals parse; IPv6 literals are not egress entries", () => {
    expect(parseEgressEntry("127.0.0.1:8080")).toEqual({ host: "127.0.0.1", wildcard: false, port: 8080 });
    expect(typeof parseEgressEntry("[::1]:8080")).toBe("string");
  });
});

describe("the child's environment", () => {
  test("a URL value with a database or credential scheme, or a user and password, is withheld whatever its name", () => {
    for (const value of [
      "postgres://u:p@db/x",
      "redis://:pw@cache:6379",
      "mongodb+srv://cluster/x",
      "https://user:pass@example.com/x",
      "amqps://broker",
    ])
      expect(credentialUrl(value), value).toBe(true);
    for (const value of ["https://support.example.com/tickets", "en_GB.UTF-8", "debug"])
      expect(credentialUrl(value), value).toBe(false);
    expect(
      sandboxEnv(["PORTAL_URL", "CACHE_URL", "LOG_LEVEL"], {
        PORTAL_URL: "https://support.example.com",
        CACHE_URL: "redis://:pw@cache:6379",
        LOG_LEVEL: "debug",
      }),
    ).toEqual({ PORTAL_URL: "https://support.example.com", LOG_LEVEL: "debug" });
  });
});
