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
    words: ["SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PWD", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "CREDS", "PRIVATE", "TOKEN", "TOKENS", "APIKEY", "AUTH", "SESSION", "COOKIE", "JWT", "BEARER", "OAUTH"],
    suffixes: ["KEY", "KEYS"],
    substrings: ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "PASSPHRASE", "CREDENTIAL", "PRIVATEKEY", "APIKEY"],
  },
  {
    family: "cloud or service credential",
    prefixes: ["AWS", "AZURE", "GCP", "GOOGLE", "GCLOUD", "CLOUDSDK", "DIGITALOCEAN", "HEROKU", "VERCEL", "NETLIFY", "FLY", "CLOUDFLARE", "OPENAI", "ANTHROPIC", "STRIPE", "GITHUB", "GH", "GITLAB", "NPM", "YARN", "PYPI", "TWINE", "DOCKER", "SLACK", "TWILIO", "SENTRY", "DATADOG", "DD"],
  },
  {
    family: "signing",
    words: ["SIGN", "SIGNING", "CODESIGN", "CODESIGNING", "SIGNATURE", "SIGNER", "GPG", "GNUPGHOME", "PGP", "COSIGN", "SIGSTORE", "NOTARY", "NOTARIZE", "KEYCHAIN", "CERT", "CERTS", "CERTIFICATE", "PEM", "P12", "PFX", "KEYSTORE", "TLS", "SSL", "SSH"],
  },
  {
    family: "deployment",
    words: ["DEPLOY", "DEPLOYMENT", "DEPLOYER", "KUBECONFIG", "KUBE", "KUBERNETES", "HELM", "TERRAFORM", "PULUMI", "ANSIBLE", "NOMAD", "ARGOCD", "SPINNAKER"],
    prefixes: ["TF", "CI", "RUNNER", "BUILDKITE", "CIRCLE", "TRAVIS", "JENKINS", "ACTIONS"],
  },
  {
    family: "bootstrap",
    words: ["BOOTSTRAP"],
    prefixes: ["LD", "DYLD"],
    exact: ["NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "UV_THREADPOOL_SIZE", "PATH", "HOME", "SHELL", "BASH_ENV", "ENV", "PROMPT_COMMAND", "IFS", "PYTHONPATH", "PYTHONSTARTUP", "PERL5LIB", "RUBYOPT", "JAVA_TOOL_OPTIONS"],
  },
  {
    family: "database",
    words: ["DATABASE", "DB", "DSN", "POSTGRES", "POSTGRESQL", "MYSQL", "MARIADB", "MONGO", "MONGODB", "REDIS", "MEMCACHE", "MEMCACHED", "SQLITE", "ELASTIC", "ELASTICSEARCH", "CASSANDRA", "KAFKA", "RABBIT", "RABBITMQ", "AMQP", "SUPABASE", "FIREBASE", "DYNAMODB", "SNOWFLAKE", "BIGQUERY", "CLICKHOUSE", "NEO4J"],
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
  return undefined;
}
