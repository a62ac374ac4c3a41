import { describe, expect, test } from "vitest";
import { tool } from "../../src/index.js";
import { expectRule, validToolOptions } from "./helpers.js";

const withField = (overrides: Record<string, unknown>) => () => tool(validToolOptions(overrides) as never);
const withEnv = (env: unknown) => withField({ sandboxProfile: { env } });
const subject = 'tool "lookup_order"';

describe("tool(): sandbox mode", () => {
  test('defaults to "required"', () => {
    expect(tool(validToolOptions() as never).sandbox).toBe("required");
  });

  test.each(["required", "none"] as const)("accepts %s", (sandbox) => {
    expect(tool(validToolOptions({ sandbox }) as never).sandbox).toBe(sandbox);
  });

  test.each([["REQUIRED"], ["off"], ["strict"], [""], [true], [false], [null]])(
    "refuses %j with CAVE1017",
    (sandbox) => {
      expectRule(withField({ sandbox }), {
        code: "CAVE1017",
        subject,
        field: "sandbox",
        mentions: /is not "required" or "none"/,
        hint: /default, "required"/,
      });
    },
  );
});

describe("tool(): sandboxProfile", () => {
  test("defaults to no network and no environment", () => {
    expect(tool(validToolOptions() as never).sandboxProfile).toEqual({
      network: false,
      env: [],
      egress: [],
      secrets: {},
      fs: { read: [], write: [] },
      addons: false,
    });
  });

  test("network: false and an empty profile are accepted", () => {
    expect(tool(validToolOptions({ sandboxProfile: { network: false } }) as never).sandboxProfile).toEqual({
      network: false,
      env: [],
      egress: [],
      secrets: {},
      fs: { read: [], write: [] },
      addons: false,
    });
    expect(tool(validToolOptions({ sandboxProfile: {} }) as never).sandboxProfile).toEqual({
      network: false,
      env: [],
      egress: [],
      secrets: {},
      fs: { read: [], write: [] },
      addons: false,
    });
  });

  test("network: true fails closed with CAVE1008", () => {
    expectRule(withField({ sandboxProfile: { network: true } }), {
      code: "CAVE1008",
      subject,
      field: "sandboxProfile.network",
      mentions: /requests unbounded egress, which the sandbox never grants, so it fails closed/,
      hint: /Remove network: true and list the hosts the tool reaches in sandboxProfile\.egress/,
    });
  });

  test.each([["true"], [1], [null], [{ allow: ["api.example.com"] }]])(
    "network %j is not a boolean: CAVE1018",
    (network) => {
      expectRule(withField({ sandboxProfile: { network } }), {
        code: "CAVE1018",
        subject,
        field: "sandboxProfile.network",
        mentions: /not a boolean/,
        hint: /network access is off/,
      });
    },
  );

  test.each([[null], ["LOG_LEVEL"], [["LOG_LEVEL"]], [42]])(
    "refuses the profile %j with CAVE1018",
    (sandboxProfile) => {
      expectRule(withField({ sandboxProfile }), {
        code: "CAVE1018",
        subject,
        field: "sandboxProfile",
        mentions: /not an object/,
        hint: /env: \["NAME"\]/,
      });
    },
  );

  test.each([
    ["envs", /Did you mean "env"\?/],
    ["netwrk", /Did you mean "network"\?/],
    ["files", /^Known options: network, env, egress, secrets, fs, addons\.$/],
  ])("an unknown profile key %s is CAVE1007", (key, hint) => {
    expectRule(withField({ sandboxProfile: { [key]: true } }), {
      code: "CAVE1007",
      subject,
      field: `sandboxProfile.${key}`,
      mentions: `unknown option "sandboxProfile.${key}"`,
      hint,
    });
  });

  test.each([["LOG_LEVEL"], [{ LOG_LEVEL: "debug" }], [null]])("env %j that is not an array is CAVE1018", (env) => {
    expectRule(withEnv(env), {
      code: "CAVE1018",
      subject,
      field: "sandboxProfile.env",
      mentions: /not an array of names/,
      hint: /\["LOG_LEVEL"\]/,
    });
  });

  test.each([["1LOG"], ["LOG-LEVEL"], [""], ["LOG LEVEL"], [7], [null]])(
    "the env entry %j is not a valid name: CAVE1018",
    (name) => {
      expectRule(withEnv(["TZ", name]), {
        code: "CAVE1018",
        subject,
        field: "sandboxProfile.env[1]",
        mentions: /is not a valid name/,
        hint: /\^\[A-Za-z_\]/,
      });
    },
  );

  test("a name listed twice is CAVE1018 at the second position", () => {
    expectRule(withEnv(["TZ", "LOG_LEVEL", "TZ"]), {
      code: "CAVE1018",
      subject,
      field: "sandboxProfile.env[2]",
      mentions: /"TZ" is listed twice/,
      hint: /List each name once/,
    });
  });

  test.each([
    "LOG_LEVEL",
    "TZ",
    "REGION",
    "LANG",
    "LC_ALL",
    "SUPPORT_DESK_REGION",
    "DEFAULT_CURRENCY",
    "FEATURE_FLAGS",
    "NODE_ENV",
    "PORT",
  ])("accepts the harmless name %s and keeps it", (name) => {
    expect(tool(validToolOptions({ sandboxProfile: { env: [name] } }) as never).sandboxProfile.env).toEqual([name]);
  });

  test("keeps the allow-list in the order written", () => {
    expect(
      tool(validToolOptions({ sandboxProfile: { env: ["TZ", "LOG_LEVEL", "REGION"] } }) as never).sandboxProfile.env,
    ).toEqual(["TZ", "LOG_LEVEL", "REGION"]);
  });
});

describe("tool(): denied environment names (CAVE1009), by family", () => {
  const families: ReadonlyArray<readonly [string, string]> = [
    // ambient secrets
    ["AWS_SECRET_ACCESS_KEY", "ambient secret"],
    ["NPM_TOKEN", "ambient secret"],
    ["GITHUB_TOKEN", "ambient secret"],
    ["PGPASSWORD", "ambient secret"],
    ["OPENAI_API_KEY", "ambient secret"],
    ["STRIPE_SECRET_KEY", "ambient secret"],
    ["SESSION_COOKIE", "ambient secret"],
    ["HTTP_AUTH", "ambient secret"],
    ["GOOGLE_APPLICATION_CREDENTIALS", "ambient secret"],
    ["aws_secret_access_key", "ambient secret"],
    // cloud and service credentials that do not say "secret" in their name
    ["AWS_ACCESS_KEY_ID", "cloud or service credential"],
    ["AWS_PROFILE", "cloud or service credential"],
    ["AZURE_CLIENT_ID", "cloud or service credential"],
    ["SLACK_WEBHOOK_URL", "ambient secret"],
    // signing
    ["CODESIGN_IDENTITY", "signing"],
    ["GPG_TTY", "signing"],
    ["COSIGN_EXPERIMENTAL", "signing"],
    ["SSL_CERT_FILE", "signing"],
    ["SSH_AGENT_PID", "signing"],
    // deployment
    ["KUBECONFIG", "deployment"],
    ["DEPLOY_ENV", "deployment"],
    ["TF_VAR_region", "deployment"],
    ["HELM_HOME", "deployment"],
    ["CI_JOB_ID", "deployment"],
    // bootstrap
    ["NODE_OPTIONS", "bootstrap"],
    ["NODE_PATH", "bootstrap"],
    ["LD_PRELOAD", "bootstrap"],
    ["DYLD_INSERT_LIBRARIES", "bootstrap"],
    ["PATH", "bootstrap"],
    ["HOME", "bootstrap"],
    ["BASH_ENV", "bootstrap"],
    ["BOOTSTRAP_SERVERS", "bootstrap"],
    // database
    ["DATABASE_URL", "database"],
    ["PGHOST", "database"],
    ["PGUSER", "database"],
    ["POSTGRES_DB", "database"],
    ["MYSQL_HOST", "database"],
    ["MONGO_URI", "database"],
    ["REDIS_URL", "database"],
    ["DB_HOST", "database"],
    ["SENTRY_DSN", "cloud or service credential"],
    // read at start-up by Node, OpenSSL or the C library
    ["NODE_EXTRA_CA_CERTS", "signing"],
    ["NODE_USE_ENV_PROXY", "proxy (where network clients send their requests)"],
    ["NODE_COMPILE_CACHE", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["NODE_DEBUG", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["OPENSSL_CONF", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["OPENSSL_MODULES", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["GCONV_PATH", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["GLIBC_TUNABLES", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["KRB5CCNAME", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["KRB5_CONFIG", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["HOSTALIASES", "start-up setting (read by Node, OpenSSL or the C library)"],
    ["NETRC", "ambient secret"],
    ["SSLKEYLOGFILE", "ambient secret"],
    ["DISCORD_WEBHOOK", "ambient secret"],
    ["ALERTS_WEBHOOK_URL", "ambient secret"],
    ["SMTP_PASS", "ambient secret"],
    ["MYPASS", "ambient secret"],
    ["HTTPS_PROXY", "proxy (where network clients send their requests)"],
    ["no_proxy", "proxy (where network clients send their requests)"],
  ];

  test.each(families)("%s is denied as a %s name", (name, family) => {
    expectRule(withEnv(["LOG_LEVEL", name]), {
      code: "CAVE1009",
      subject,
      field: "sandboxProfile.env[1]",
      mentions: `environment name "${name}" looks like ${/^[aeiou]/.test(family) ? "an" : "a"} ${family} name and is denied`,
      hint: /secret|credential/.test(family)
        ? /never receive such variables, even when listed.*sandboxProfile\.secrets/
        : /never receive such variables, even when listed; pass what the tool needs as an argument/,
    });
  });

  test("every denied name in one profile is reported", () => {
    const error = expectRule(withEnv(["DATABASE_URL", "TZ", "NPM_TOKEN"]), {
      code: "CAVE1009",
      subject,
      field: "sandboxProfile.env[0]",
      count: 2,
    });
    expect(error.violations.map((v) => v.field)).toEqual(["sandboxProfile.env[0]", "sandboxProfile.env[2]"]);
  });

  test('sandbox: "none" does not make a denied name acceptable', () => {
    const error = expectRule(withField({ sandbox: "none", sandboxProfile: { env: ["GITHUB_TOKEN"] } }), {
      code: "CAVE1018",
      subject,
      field: "sandboxProfile.env",
      count: 2,
    });
    expect(error.violations.map((v) => [v.code, v.field])).toContainEqual(["CAVE1009", "sandboxProfile.env[0]"]);
  });

  test('an env allow-list with sandbox: "none" is refused: in process, the tool would see everything', () => {
    expectRule(withField({ sandbox: "none", sandboxProfile: { env: ["LOG_LEVEL"] } }), {
      code: "CAVE1018",
      subject,
      field: "sandboxProfile.env",
      hint: /Drop sandbox: "none"/,
    });
  });
});
