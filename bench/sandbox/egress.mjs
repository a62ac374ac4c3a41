// The egress broker's cost, side by side in one run (npm run build first; node bench/sandbox/egress.mjs):
// 1. added latency per request: the same keep-alive GET to an HTTP server on 127.0.0.1, sent directly from the host
//    and sent through a broker socket (absolute-form, as a sandbox child sends it), alternating rounds;
// 2. a 100 MiB response streamed through the broker: throughput beside a direct download, and the process's RSS
//    sampled every 20 ms while it streams (the broker holds no whole body, so RSS stays flat).
// The broker and the client share this process here, so the RSS figure bounds both together.
import { Agent, createServer, request } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const { EgressChannel, resolveEgressOptions, upstreamAgents } = await import(
  pathToFileURL(join(repoRoot, "dist/runtime/sandbox/egress/index.js")).href
);

const REQUESTS = 2_000;
const ROUNDS = 5;
const STREAM_MB = 100;
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

const chunk = Buffer.alloc(64 * 1024, 120);
const server = createServer((req, res) => {
  if (req.url === "/big" || req.url?.endsWith("/big")) {
    const total = STREAM_MB * 1_048_576;
    let sent = 0;
    res.writeHead(200, { "content-length": String(total) });
    Readable.from(
      (function* () {
        while (sent < total) {
          sent += chunk.length;
          yield chunk;
        }
      })(),
    ).pipe(res);
    return;
  }
  res.end("ok");
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = server.address().port;

const agents = upstreamAgents();
const channel = new EgressChannel(
  {
    egress: ["api.bench.test"],
    secrets: { BENCH_TOKEN: { hosts: ["api.bench.test"], header: "authorization", format: "Bearer {}" } },
  },
  resolveEgressOptions({ resolve: { "api.bench.test": `127.0.0.1:${port}` } }),
  agents,
);
channel.arm(new Map([["BENCH_TOKEN", "bench-token"]]));

const direct = new Agent({ keepAlive: true, maxSockets: 1 });
const viaBroker = new Agent({ keepAlive: true, maxSockets: 1 });

function get(options, sink) {
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      let bytes = 0;
      res.on("data", (data) => {
        bytes += data.length;
        sink?.(data);
      });
      res.on("end", () => resolve(bytes));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const routes = {
  direct: (path) => ({ host: "127.0.0.1", port, path, agent: direct }),
  broker: (path) => ({ socketPath: channel.hostPath, path: `http://api.bench.test${path}`, agent: viaBroker }),
};

async function latency(route) {
  const out = new Array(REQUESTS);
  for (let i = 0; i < REQUESTS; i++) {
    const t = process.hrtime.bigint();
    await get(routes[route]("/"));
    out[i] = Number(process.hrtime.bigint() - t) / 1000;
  }
  return out;
}

// Warm both paths (connections, JIT), then alternate rounds so drift on a shared machine hits both alike.
await latency("direct");
await latency("broker");
channel.disarm();
channel.arm(new Map([["BENCH_TOKEN", "bench-token"]]));
const samples = { direct: [], broker: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const route of round % 2 === 0 ? ["direct", "broker"] : ["broker", "direct"])
    samples[route].push(...(await latency(route)));
  channel.disarm();
  channel.arm(new Map([["BENCH_TOKEN", "bench-token"]]));
}

async function stream(route) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t = process.hrtime.bigint();
  const bytes = await get(routes[route]("/big"));
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    bytes,
    mbPerSecond: Math.round(bytes / 1_048_576 / seconds),
    rssGrowthMb: Math.round(((peak - before) / 1_048_576) * 10) / 10,
  };
}
const streamed = { direct: await stream("direct"), broker: await stream("broker") };
const records = channel.disarm();

const summary = (xs) => ({ p50: Math.round(quantile(xs, 0.5)), p99: Math.round(quantile(xs, 0.99)) });
const result = {
  node: process.version,
  requests: REQUESTS * ROUNDS,
  latencyUs: { direct: summary(samples.direct), broker: summary(samples.broker) },
  addedUs: {
    p50: Math.round(quantile(samples.broker, 0.5) - quantile(samples.direct, 0.5)),
    p99: Math.round(quantile(samples.broker, 0.99) - quantile(samples.direct, 0.99)),
  },
  stream: { mb: STREAM_MB, ...streamed },
  receiptRecord: records.at(-1),
};
console.log(JSON.stringify(result, null, 2));
channel.close();
agents.http.destroy();
direct.destroy();
viaBroker.destroy();
server.close();
