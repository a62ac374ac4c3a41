/**
 * Environment names a tool may never receive, even when its profile lists them. The contract denies
 * "signing, deployment, bootstrap, database, and ambient secret names". Names are matched by their
 * `_`-separated words (case-insensitive), so DESIGN_MODE or CONCERT_ID are not mistaken for SIGN or CERT.
 */
interface Family {
  readonly family: string;
  /** Any of these words anywhere in the name. */
  readonly words?: readonly string[];
  /** Names beginning with one of these words. */
  readonly prefixes?: readonly string[];
  /** Exact names. */
  readonly exact?: readonly string[];
  /** Words that end the name (e.g. ..._KEY). */
  readonly suffixes?: readonly string[];
  /** Strings unmistakable even inside a word (PGPASSWORD, MYSECRET). */
  readonly substrings?: readonly string[];
}

const FAMILIES: readonly Family[] = [
  {
    family: "ambient secret",
    words: [
      "SECRET",
      "SECRETS",
      "PASSWORD",
      "PASSWD",
      "PASS",
      "PWD",
      "PASSPHRASE",
      "CREDENTIAL",
      "CREDENTIALS",
      "CREDS",
      "PRIVATE",
      "TOKEN",
      "TOKENS",
      "APIKEY",
      "AUTH",
      "SESSION",
      "COOKIE",
      "JWT",
      "BEARER",
      "OAUTH",
      "NETRC",
    ],
    suffixes: ["KEY", "KEYS"],
    // PASS anywhere (MYPASS, PASSWORD): a harmless COMPASS_HEADING is the price of failing closed. WEBHOOK: its URL is the credential.
    substrings: ["PASS", "SECRET", "TOKEN", "CREDENTIAL", "PRIVATEKEY", "APIKEY", "WEBHOOK"],
    exact: ["NETRC", "CURL_HOME", "SSLKEYLOGFILE"],
  },
  {
    family: "cloud or service credential",
    prefixes: [
      "AWS",
      "AZURE",
      "GCP",
      "GOOGLE",
      "GCLOUD",
      "CLOUDSDK",
      "DIGITALOCEAN",
      "HEROKU",
      "VERCEL",
      "NETLIFY",
      "FLY",
      "CLOUDFLARE",
      "OPENAI",
      "ANTHROPIC",
      "STRIPE",
      "GITHUB",
      "GH",
      "GITLAB",
      "NPM",
      "YARN",
      "PYPI",
      "TWINE",
      "DOCKER",
      "SLACK",
      "TWILIO",
      "SENTRY",
      "DATADOG",
      "DD",
    ],
  },
  {
    family: "signing",
    words: [
      "SIGN",
      "SIGNING",
      "CODESIGN",
      "CODESIGNING",
      "SIGNATURE",
      "SIGNER",
      "GPG",
      "GNUPGHOME",
      "PGP",
      "COSIGN",
      "SIGSTORE",
      "NOTARY",
      "NOTARIZE",
      "KEYCHAIN",
      "CERT",
      "CERTS",
      "CERTIFICATE",
      "PEM",
      "P12",
      "PFX",
      "KEYSTORE",
      "TLS",
      "SSL",
      "SSH",
    ],
  },
  {
    family: "deployment",
    words: [
      "DEPLOY",
      "DEPLOYMENT",
      "DEPLOYER",
      "KUBECONFIG",
      "KUBE",
      "KUBERNETES",
      "HELM",
      "TERRAFORM",
      "PULUMI",
      "ANSIBLE",
      "NOMAD",
      "ARGOCD",
      "SPINNAKER",
    ],
    prefixes: ["TF", "CI", "RUNNER", "BUILDKITE", "CIRCLE", "TRAVIS", "JENKINS", "ACTIONS"],
  },
  {
    // What Node, OpenSSL, the C library and its resolver read at start-up: each changes how the child's process
    // loads code, trusts certificates, finds hosts or converts text before any tool byte runs.
    family: "start-up setting (read by Node, OpenSSL or the C library)",
    prefixes: ["OPENSSL", "KRB5", "GCONV", "GLIBC", "MALLOC"],
    exact: ["HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS", "NLSPATH", "LOCPATH", "TZDIR"],
    // KRB5CCNAME and the like are one word.
    substrings: ["KRB5"],
  },
  {
    family: "proxy (where network clients send their requests)",
    exact: ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "FTP_PROXY", "GLOBAL_AGENT_HTTP_PROXY"],
    suffixes: ["PROXY"],
  },
  {
    family: "bootstrap",
    words: ["BOOTSTRAP"],
    prefixes: ["LD", "DYLD"],
    exact: [
      "NODE_OPTIONS",
      "NODE_PATH",
      "NODE_EXTRA_CA_CERTS",
      "NODE_TLS_REJECT_UNAUTHORIZED",
      "UV_THREADPOOL_SIZE",
      "PATH",
      "HOME",
      "SHELL",
      "BASH_ENV",
      "ENV",
      "PROMPT_COMMAND",
      "IFS",
      "PYTHONPATH",
      "PYTHONSTARTUP",
      "PERL5LIB",
      "RUBYOPT",
      "JAVA_TOOL_OPTIONS",
    ],
  },
  {
    family: "database",
    words: [
      "DATABASE",
      "DB",
      "DSN",
      "POSTGRES",
      "POSTGRESQL",
      "MYSQL",
      "MARIADB",
      "MONGO",
      "MONGODB",
      "REDIS",
      "MEMCACHE",
      "MEMCACHED",
      "SQLITE",
      "ELASTIC",
      "ELASTICSEARCH",
      "CASSANDRA",
      "KAFKA",
      "RABBIT",
      "RABBITMQ",
      "AMQP",
      "SUPABASE",
      "FIREBASE",
      "DYNAMODB",
      "SNOWFLAKE",
      "BIGQUERY",
      "CLICKHOUSE",
      "NEO4J",
    ],
    prefixes: ["PG"],
  },
];

/** Why an environment name is denied (its family), or undefined when a tool may receive it. */
export function deniedEnvReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  const words = upper.split("_").filter((w) => w !== "");
  for (const rule of FAMILIES) {
    if (rule.exact?.includes(upper)) return rule.family;
    if (rule.substrings?.some((part) => upper.includes(part))) return rule.family;
    if (rule.words?.some((w) => words.includes(w))) return rule.family;
    if (rule.prefixes?.some((p) => words[0] === p)) return rule.family;
    if (words.length > 1 && rule.suffixes?.includes(words[words.length - 1]!)) return rule.family;
  }
  // PGPASSWORD, PGHOST...: PostgreSQL's own variables are one word.
  if (/^PG[A-Z]+$/.test(upper)) return "database";
  // Node reads NODE_OPTIONS, NODE_EXTRA_CA_CERTS, NODE_USE_ENV_PROXY, NODE_COMPILE_CACHE... and each release adds
  // more; NODE_ENV is only a library convention, which Node itself never reads.
  if (words[0] === "NODE" && upper !== "NODE_ENV") return "start-up setting (read by Node, OpenSSL or the C library)";
  // A URL-valued name may carry a database or credential scheme (postgres://user:pass@...); its value is checked
  // when the child is started (credentialUrl), the name here only when it says so.
  return undefined;
}

/** Schemes whose URLs are database connections or carry credentials by design. */
const CREDENTIAL_SCHEMES =
  /^(postgres(ql)?|mysql|mariadb|mongodb(\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]+|ldaps?|smtps?|ftps?|sftp|ssh|s3|gs|azblob|kafka|nats|clickhouse|snowflake|cockroachdb|neo4j(\+s)?|bolt):/i;

/**
 * Whether an environment value is a URL a tool must not receive whatever its name: a database or credential scheme,
 * or any URL with a user or password in it (https://user:pass@host). Checked on the value when the child is started,
 * since `*_URL` names alone say nothing (SUPPORT_PORTAL_URL is harmless, CACHE_URL=redis://:pw@... is not).
 */
export function credentialUrl(value: string): boolean {
  const text = value.trim();
  if (CREDENTIAL_SCHEMES.test(text)) return true;
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text);
}
