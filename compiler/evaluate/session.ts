import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { isChildMessage } from "./decode.js";
import { nodeFeatures } from "../../runtime/sandbox/node-features.js";
import {
  ADDONS_ARGUMENT,
  MAX_REPLY_BYTES,
  type ChildReply,
  type ImportRequest,
  type ParentMessage,
} from "./protocol.js";
import { encodeFrame, FrameReader } from "../../runtime/sandbox/child/frames.mjs";
import { permissionFlag } from "./child-script.js";
import { osLayerCommand, sandboxedExit, type OsLayer } from "../../runtime/sandbox/os-layer.js";

/** How an evaluation child is started: under the sandbox's OS layer (bubblewrap), or directly (the Node layers only). */
export interface Launch {
  readonly osLayer: OsLayer | null;
}

/** What happened to one import request. */
export type Reply =
  | Extract<ChildReply, { type: "imported" | "threw" | "untrusted" }>
  | { readonly type: "timeout" }
  | { readonly type: "ended"; readonly detail: string };

const STDERR_TAIL = 2000;

/** What waiting for the child gives: its reply, or why there is none. */
type Answer =
  | ChildReply
  | { readonly type: "ready" }
  | { readonly type: "timeout" }
  | { readonly type: "ended"; readonly detail: string };

/** One evaluation child process: an empty environment, the permission model, one import at a time. */
export class Session {
  /** How many imports were sent to this child. */
  imports = 0;
  /** What those imports keep in the child's memory, in bundles' worth (each imports the one shared SDK module). */
  retained = 0;
  /** True until the first import is sent: a failure of the first module cannot be blamed on another. */
  get fresh(): boolean {
    return this.imports === 0;
  }
  /** Whether the child imported the build's SDK module and froze it, for the bundles it imports to share (shareSdk). */
  sharesSdk = false;
  readonly #child: ChildProcess;
  readonly #channel: Writable;
  #stderr = "";
  #ended: string | undefined;
  /** The nonce the awaited reply must carry ("ready" carries none). */
  #expected: string | null = null;
  #waiting: ((message: Answer) => void) | undefined;

  private constructor(child: ChildProcess, sandboxed: boolean) {
    this.#child = child;
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    const channel = child.stdio[3] as Readable & Writable;
    this.#channel = channel;
    // Writing to a child that has just ended fails with EPIPE; its "close" says why it ended.
    channel.on("error", () => undefined);
    const frames = new FrameReader(MAX_REPLY_BYTES);
    channel.on("data", (chunk: Buffer) => {
      let texts: string[];
      try {
        texts = frames.push(chunk);
      } catch (thrown) {
        this.#broken(`the evaluation process sent a frame it may not: ${(thrown as Error).message}`);
        return;
      }
      for (const text of texts) this.#answer(text);
    });
    // "close" rather than "exit": by then the last of stderr has been read.
    child.on("close", (rawCode, rawSignal) => {
      const { code, signal } = sandboxed ? sandboxedExit(rawCode, rawSignal) : { code: rawCode, signal: rawSignal };
      this.#end(signal ? `it was ended by ${signal}` : `it exited with code ${code}`);
    });
    child.on("error", (cause) => this.#end(`it failed: ${cause.message}`));
  }

  /**
   * Starts a child and waits for it to be ready (within `timeoutMs`). Its working directory is the project
   * root, so that a message quoting process.cwd() holds no other path of this machine. It may read `readable` (the
   * private copy of the staged files, a folder with a trailing separator) and nothing else.
   */
  static async start(
    script: string,
    options: {
      readonly timeoutMs: number;
      readonly cwd: string;
      readonly readable: string;
      readonly alsoReadable?: readonly string[] | undefined;
      readonly launch?: Launch | undefined;
      readonly addons?: boolean;
    },
  ): Promise<Session> {
    const { timeoutMs, cwd, readable } = options;
    // alsoReadable: the real folders of external packages the bundles import (linked into the copy's node_modules).
    const also = options.alsoReadable ?? [];
    // Addons only under the OS layer, as for a sandboxed tool (runtime/sandbox/os-only.ts): the Node layers cannot stop
    // native code. The permission model refuses them unless granted; the deny layer unless told (ADDONS_ARGUMENT).
    const layer = options.launch?.osLayer ?? null;
    const addons = options.addons === true && layer !== null;
    const grant = addons && nodeFeatures().permissionCovers.includes("addons") ? ["--allow-addons"] : [];
    const node = [
      process.execPath,
      permissionFlag(),
      `--allow-fs-read=${readable}`,
      ...also.map((path) => `--allow-fs-read=${path}`),
      ...grant,
      "--no-warnings",
      "--input-type=module",
      "--eval",
      script,
      ...(addons ? [ADDONS_ARGUMENT] : []),
    ];
    // Under the OS layer the child sees node and the private copy of the staged files (read-only) and nothing else:
    // no project, no network, no host socket. Its working directory there is an empty folder at the project root's
    // path, so a message quoting process.cwd() reads as before.
    const mounts = [readable, ...also].map((path) => ({ path: path.replace(/[\\/]+$/, "") }));
    const command = layer === null ? node : osLayerCommand(layer, { mounts, command: node, chdir: cwd });
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      env: {},
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    const session = new Session(child, layer !== null);
    const first = await session.#next(timeoutMs, null);
    if (first.type !== "ready") {
      session.kill();
      throw new Error(
        `the evaluation process did not start: ${first.type === "ended" ? first.detail : "it timed out"}`,
      );
    }
    return session;
  }

  /**
   * Has the child import the SDK module once, frozen, for later bundles to share; false if it could not (then each
   * bundle is imported in a child of its own, which is always correct). Not an import: the child stays fresh.
   * Throws, with the child killed, if it does not answer in time.
   */
  async shareSdk(url: string, timeoutMs: number): Promise<boolean> {
    const reply = await this.#ask({ type: "sdk", nonce: randomUUID(), url }, timeoutMs);
    if (reply.type !== "sdk") {
      this.kill();
      throw new Error(
        `the evaluation process did not evaluate the SDK: ${reply.type === "ended" ? reply.detail : reply.type === "timeout" ? "it timed out" : "it answered out of turn"}`,
      );
    }
    this.sharesSdk = reply.shared;
    return this.sharesSdk;
  }

  /** Sends one bundle to import and waits for its definitions, its error, the deadline or the end of the process. */
  async run(request: Omit<ImportRequest, "nonce">, timeoutMs: number): Promise<Reply> {
    this.imports++;
    this.retained++;
    const reply = await this.#ask({ ...request, nonce: randomUUID() }, timeoutMs);
    if (reply.type === "ready") return { type: "ended", detail: "the evaluation process restarted unexpectedly" };
    if (reply.type === "sdk") return { type: "ended", detail: "the evaluation process answered out of turn" };
    return reply;
  }

  kill(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill("SIGKILL");
  }

  /** Sends one request and waits for the reply that carries its nonce. */
  #ask(request: ParentMessage, timeoutMs: number): Promise<Answer> {
    const answer = this.#next(timeoutMs, request.nonce);
    if (this.#ended === undefined) this.#channel.write(encodeFrame(JSON.stringify(request)));
    return answer;
  }

  /** A frame from the child: the awaited reply, or a broken protocol (a reply nobody asked for, a wrong nonce, a bad shape). */
  #answer(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    const waiting = this.#waiting;
    if (waiting === undefined) return this.#broken("the evaluation process answered when nothing was asked");
    const nonce = (message as { nonce?: unknown } | undefined)?.nonce ?? null;
    if (!isChildMessage(message) || nonce !== this.#expected)
      return this.#broken(
        isChildMessage(message)
          ? "the evaluation process answered another request"
          : "the evaluation process sent a malformed message",
      );
    this.#waiting = undefined;
    waiting(message);
  }

  /** The child broke the protocol: it is killed, and whoever waits is told why. */
  #broken(detail: string): void {
    this.kill();
    this.#end(detail);
  }

  #next(timeoutMs: number, nonce: string | null): Promise<Answer> {
    this.#expected = nonce;
    if (this.#ended !== undefined) return Promise.resolve({ type: "ended", detail: this.#ended });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting = undefined;
        resolve({ type: "timeout" });
      }, timeoutMs);
      this.#waiting = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
    });
  }

  #end(detail: string): void {
    if (this.#ended !== undefined) return;
    const tail = this.#stderr.trim();
    this.#ended = tail === "" ? detail : `${detail}; its last output: ${tail}`;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ type: "ended", detail: this.#ended });
  }
}
