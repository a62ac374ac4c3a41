/**
 * Environment names a tool may never receive, even when its profile lists them. The contract denies
 * "signing, deployment, bootstrap, database, and ambient secret names"; each rule below names the
 * family it stands for so that a refusal can say why.
 */
const DENIED_ENV_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE|TOKEN|(^|_)API_?KEY$|(^|_)AUTH($|_)|_KEY$|(^|_)SESSION($|_)|COOKIE/, "ambient secret"],
  [/^(AWS|AZURE|GCP|GOOGLE|GCLOUD|CLOUDSDK|DIGITALOCEAN|HEROKU|VERCEL|NETLIFY|FLY|CLOUDFLARE|CF|OPENAI|ANTHROPIC|STRIPE|GITHUB|GH|GITLAB|NPM|YARN|PYPI|DOCKER|SLACK|TWILIO|SENTRY)_/, "cloud or service credential"],
  [/SIGN|GPG|PGP|COSIGN|SIGSTORE|NOTARY|KEYCHAIN|CERT|(^|_)TLS_|(^|_)SSL_|SSH/, "signing"],
  [/DEPLOY|KUBE|HELM|TERRAFORM|^TF_|ANSIBLE|PULUMI|^CI_|RELEASE/, "deployment"],
  [/BOOTSTRAP|^NODE_OPTIONS$|^NODE_PATH$|^NODE_EXTRA_CA_CERTS$|^LD_|^DYLD_|^UV_THREADPOOL_SIZE$|^PATH$|^HOME$|^SHELL$|^BASH_ENV$|^ENV$|^PROMPT_COMMAND$/, "bootstrap"],
  [/DATABASE|(^|_)DB($|_)|(^|_)DSN($|_)|^PG|POSTGRES|MYSQL|MARIADB|MONGO|REDIS|MEMCACHE|SQLITE|ELASTIC|CASSANDRA|KAFKA|RABBIT|AMQP|SUPABASE|FIREBASE/, "database"],
];

/** Why an environment name is denied, or undefined when a tool may receive it. Case-insensitive. */
export function deniedEnvReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  for (const [pattern, family] of DENIED_ENV_RULES) if (pattern.test(upper)) return family;
  return undefined;
}
