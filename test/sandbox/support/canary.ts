import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { createServer, type Server, type Socket } from "node:net";

/**
 * A local canary: a TCP server and a UDP socket on the same ephemeral port of 127.0.0.1 (never port 1,
 * which fetch refuses before connecting, and never a non-loopback address). Anything that arrives is
 * counted, so a test can prove that no connection and no packet came from a sandboxed tool.
 */
export interface Canary {
  readonly port: number;
  /** Connections accepted, bytes received on them, UDP packets received. */
  readonly seen: { connections: number; bytes: number; packets: number };
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const seen = { connections: 0, bytes: 0, packets: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    seen.connections += 1;
    sockets.add(socket);
    socket.on("data", (chunk) => (seen.bytes += chunk.length));
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const udp: UdpSocket = createSocket("udp4");
  udp.on("message", () => (seen.packets += 1));
  await new Promise<void>((resolve, reject) => {
    udp.once("error", reject);
    udp.bind(port, "127.0.0.1", () => resolve());
  });
  return {
    port,
    seen,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}
