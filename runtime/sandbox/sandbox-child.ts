import type { ChildProcess } from "node:child_process";
import { childProcesses } from "./builtins.js";
import { randomBytes } from "node:crypto";
import type { Socket } from "node:net";
import type { CallOutcome } from "../../src/contract/outcome.js";
import { childEntry } from "../child-entry.js";
import { Exchange, type AnswerMessage } from "./exchange.js";
import { encodeFrame } from "./child/frames.mjs";
import type { ChildFailCode } from "./protocol.js";
import { osLayerCommand, sandboxedExit, type OsLayer } from "./os-layer.js";
import { forgetChild, rememberChild } from "./reaper.js";
import { sandboxedPid } from "./sandboxed-pid.js";
import { CHILD_SOCKET_PATH, type EgressChannel } from "./egress/channel.js";
import type { ScopeGrant } from "./scopes.js";
import { thrownText } from "../../src/contract/thrown-message.mjs";

/** Everything one child is started with. */
export interface ChildSpec {
  readonly name: string;
  /** Absolute path of the staged bundle in the runtime's private copy (never shown); `shownBundle` is the lock's relative path. */
  readonly bundle: string;
  /** Absolute paths the child may read besides its bootstrap: the bundle and the files it loads (the SDK module). */
  readonly readable: readonly string[];
  readonly shownBundle: string;
  readonly sha256: string;
  readonly exportName: string;
  /** The tool's input is validated by a Standard Schema, which the child runs again before execute. */
  readonly opaqueInput: boolean;
  /** The tool has no output schema: its result keeps native JSON serialisation (JSON.stringify's). */
  readonly nativeOutput: boolean;
  /** sandboxProfile.addons: the child may load native addons. */
  readonly addons: boolean;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly heapMb: number;
  /** A child not ready this long after it was started (its tool module's top-level code still running) is killed. */
  readonly startTimeoutMs: number;
  readonly maxOutputBytes: number;
  readonly maxFrameBytes: number;
  readonly permissionFlag: string;
  /** The OS layer the child starts under (bubblewrap), or null for the Node layers only. */
  readonly osLayer: OsLayer | null;
  /** The child's own egress broker socket (tools with scoped egress; always under the OS layer), closed when the child dies. */
  readonly egress: EgressChannel | null;
  /** The tool's filesystem scopes as granted for this child (mounts, permission flags), or null when it has none. */
  readonly scopes: ScopeGrant | null;
  /** Why this child must not start (a scope that cannot be granted now): it dies at once, and nothing is spawned. */
  readonly refused: string | undefined;
}

/** A child that must not be started (ChildSpec.refused). */
class RefusedStart extends Error {}

/** Why a child is gone. The first cause decided wins; the host's own kills are decided before the signal. */
export type Death =
  | { readonly by: "deadline" }
  | { readonly by: "rss"; readonly rssBytes: number }
  | { readonly by: "protocol"; readonly why: string }
  | {
      readonly by: "exit";
      readonly code: number | null;
      readonly signal: string | null;
      readonly heapExhausted: boolean;
    }
  | { readonly by: "spawn"; readonly message: string }
  | { readonly by: "refused"; readonly message: string }
  | { readonly by: "start-timeout"; readonly ms: number }
  /** Stopped by the pool (recycled, idle, closed) while nothing was pending. */
  | { readonly by: "retired" };

export type Answer = AnswerMessage | { readonly t: "died"; readonly death: Death };

export type Started =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: ChildFailCode; readonly message: string }
  | { readonly ok: false; readonly death: Death };

/** Nested calls the child asks for while a run request is pending. */
export type NestedCall = (name: string, args: unknown) => Promise<CallOutcome>;

interface Pending {
  readonly id: string;
  readonly resolve: (answer: Answer) => void;
  readonly onCall: NestedCall | undefined;
}

/**
 * The largest frame the host sends a child, and so the cap of the child's reader. A nested call's
 * outcome can carry its content as text that already holds JSON (a result plan's page or view, a
 * recovered result), which JSON.stringify escapes once more (each `"` and `\\` doubled): within the
 * value caps it stays under twice the frame cap.
 */
export function inboundFrameBytes(maxFrameBytes: number): number {
  return 2 * maxFrameBytes;
}

const STDERR_TAIL = 8192;

/** What V8 prints when the heap limit is reached, just before it aborts. */
const HEAP_EXHAUSTED = /JavaScript heap out of memory|Reached heap limit/;
/** The bootstrap's exit code when its channel to the host ended or broke under it (child/bootstrap.mjs). */
const EXIT_CHANNEL = 71;
/** How long a child that closed its channel may take to exit before it counts as a protocol error. */
const CHANNEL_CLOSED_GRACE_MS = 2_000;
/** The descriptor bwrap writes its info (the sandbox's pid) to, in bwrap's own table. */
const INFO_FD = 4;

/**
 * One sandboxed child process and its end of the protocol: it answers one request at a time, and
 * anything but exactly one well-formed answer for the pending request kills it. Every wait resolves
 * as soon as the outcome is known: a kill settles the pending request at once, without waiting for
 * the process to be reaped.
 */
export class SandboxChild {
  /** The process the host started: node itself, or bwrap around it (its process group is what the host kills). */
  readonly pid: number | undefined;
  /** Requests sent so far. */
  requests = 0;
  readonly started: Promise<Started>;
  private dead = false;
  private readonly secret = randomBytes(9).toString("base64url");
  private pending: Pending | undefined;
  private readonly exchange: Exchange;
  private readonly process: ChildProcess;
  private readonly channel: Socket | undefined;
  /** The last STDERR_TAIL bytes of stderr (only the heap-exhaustion message is read from it, at exit). */
  private stderrTail: Buffer = Buffer.alloc(0);

  private death: Death | undefined;
  private exited = false;
  private resolveStarted!: (started: Started) => void;
  private readonly deathListeners: Array<(child: SandboxChild) => void> = [];
  /** The child's reader cap: no frame the host sends is larger. */
  private readonly inboundCap: number;
  /** Under the OS layer: bwrap's first process inside the sandbox (from its --info-fd), and the node process it started. */
  private sandboxInit: number | undefined;
  private nodePid: number | undefined;

  constructor(readonly spec: ChildSpec) {
    this.started = new Promise((resolve) => {
      this.resolveStarted = resolve;
    });
    this.exchange = new Exchange(spec.maxFrameBytes);
    this.inboundCap = inboundFrameBytes(spec.maxFrameBytes);
    const { dir, bootstrap } = childEntry();
    const scopes = spec.scopes;
    const nodeArgs = [
      spec.permissionFlag,
      `--allow-fs-read=${dir}/`,
      ...spec.readable.map((path) => `--allow-fs-read=${path}`),
      ...(scopes?.read ?? []).map((path) => `--allow-fs-read=${path}`),
      ...(scopes?.write ?? []).map((path) => `--allow-fs-write=${path}`),
      // Addons only for a tool whose profile says so (and only under the OS layer: os-only.ts); Node's permission model
      // refuses them unless --allow-addons is given.
      spec.addons ? "--allow-addons" : "--no-addons",
      `--max-old-space-size=${spec.heapMb}`,
      "--no-warnings",
      bootstrap,
    ];
    // Under the OS layer the child sees the same paths, bound read-only: its bootstrap folder and its bundle.
    const command =
      spec.osLayer === null
        ? [process.execPath, ...nodeArgs]
        : osLayerCommand(spec.osLayer, {
            // The broker socket is seen at one fixed path inside, whatever the host's temporary folder is.
            mounts: [
              { path: dir },
              ...spec.readable.map((path) => ({ path })),
              ...(spec.egress === null ? [] : [{ path: spec.egress.hostPath, target: CHILD_SOCKET_PATH }]),
              ...(scopes?.mounts ?? []),
            ],
            command: [process.execPath, ...nodeArgs],
            infoFd: INFO_FD,
            chdir: spec.cwd,
          });
    let child: ChildProcess;
    try {
      if (spec.refused !== undefined) throw new RefusedStart(spec.refused);
      // detached: a new session and process group, so the whole group is killed at once and the
      // child cannot signal its parent's group. fd 4 carries bwrap's info (the sandbox's pid), if any.
      const stdio: Array<"ignore" | "pipe"> = ["ignore", "ignore", "pipe", "pipe"];
      if (spec.osLayer !== null) stdio.push("pipe");
      child = childProcesses().spawn(command[0]!, command.slice(1), {
        env: { ...spec.env },
        cwd: spec.cwd,
        detached: true,
        stdio,
        windowsHide: true,
      });
    } catch (thrown) {
      this.process = undefined as never;
      this.pid = undefined;
      this.channel = undefined;
      this.die(
        thrown instanceof RefusedStart
          ? { by: "refused", message: thrown.message }
          : { by: "spawn", message: thrownText(thrown) },
      );
      return;
    }
    this.process = child;
    this.pid = child.pid;
    const startTimer = setTimeout(() => {
      if (this.starting) this.die({ by: "start-timeout", ms: spec.startTimeoutMs });
    }, spec.startTimeoutMs);
    startTimer.unref();
    void this.started.then(() => clearTimeout(startTimer));
    this.channel = child.stdio[3] as Socket;
    if (this.pid !== undefined) rememberChild(this.pid);
    if (spec.osLayer === null) this.nodePid = this.pid;
    else this.readInfo(child.stdio[INFO_FD] as Socket);
    // Kept as bytes, never decoded as it comes: a 128 MB flood costs the host a copy of the tail per read, nothing more.
    child.stderr!.on("data", (chunk: Buffer) => {
      this.stderrTail =
        chunk.length >= STDERR_TAIL
          ? chunk.subarray(chunk.length - STDERR_TAIL)
          : Buffer.concat([this.stderrTail, chunk]).subarray(-STDERR_TAIL);
    });
    // Never keeps the host alive by itself: an idle child must not stop the host from exiting, and
    // a call in flight is kept alive by the runtime's deadline timer, which settles it in any case.
    child.unref();
    this.channel.unref();
    (child.stderr as Socket).unref();
    this.channel.on("data", (chunk: Buffer) => this.onData(chunk));
    this.channel.on("error", () => undefined);
    this.channel.on("end", () => this.onChannelEnd());
    child.on("error", (error) => this.die({ by: "spawn", message: error.message }));
    child.on("exit", () => {
      this.exited = true;
      if (this.pid !== undefined) forgetChild(this.pid);
    });
    // "close": the process is gone and its stderr fully read (the heap message comes last).
    child.on("close", (rawCode, rawSignal) => {
      // Under bwrap a signal that killed node arrives as bwrap's exit code 128 + n.
      const { code, signal } =
        spec.osLayer === null ? { code: rawCode, signal: rawSignal } : sandboxedExit(rawCode, rawSignal);
      this.die(
        code === EXIT_CHANNEL
          ? { by: "protocol", why: "closed or broke its channel" }
          : { by: "exit", code, signal, heapExhausted: HEAP_EXHAUSTED.test(this.stderrTail.toString("latin1")) },
      );
    });
    this.write(
      JSON.stringify({
        t: "init",
        // The names the child may have: a launcher adds its own (bwrap sets PWD), which the bootstrap removes.
        env: Object.keys(spec.env),
        bundle: spec.bundle,
        shownBundle: spec.shownBundle,
        sha256: spec.sha256,
        exportName: spec.exportName,
        name: spec.name,
        opaqueInput: spec.opaqueInput,
        nativeOutput: spec.nativeOutput,
        addons: spec.addons,
        maxOutputBytes: spec.maxOutputBytes,
        maxFrameBytes: spec.maxFrameBytes,
        maxInboundFrameBytes: this.inboundCap,
        egress: spec.egress === null ? null : CHILD_SOCKET_PATH,
      }),
    );
  }

  get alive(): boolean {
    return !this.dead;
  }

  get idle(): boolean {
    return !this.dead && this.exchange.phase === "idle";
  }

  /** Still loading its tool: no request has been sent to it. */
  get starting(): boolean {
    return !this.dead && this.exchange.phase === "starting";
  }

  /** Running a request (a deadline kills it then; during start-up it is left to finish). */
  get busy(): boolean {
    return !this.dead && this.exchange.phase === "busy";
  }

  /**
   * The host pid of the node process that runs the tool (what the RSS watchdog measures and a kill must reach).
   * Without the OS layer it is the process the host started; under it, the child of bwrap's first process inside
   * the sandbox, found once bwrap has said which that is. Undefined until then, and after death.
   */
  realPid(): number | undefined {
    if (this.dead) return undefined;
    if (this.nodePid === undefined && this.sandboxInit !== undefined) this.nodePid = sandboxedPid(this.sandboxInit);
    return this.nodePid;
  }

  /** bwrap writes one JSON object to its --info-fd: `child-pid` is its first process inside the sandbox, as the host numbers it. */
  private readInfo(info: Socket): void {
    let text = "";
    info.setEncoding("utf8");
    info.on("data", (chunk: string) => {
      text += chunk;
      const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (match !== null && this.sandboxInit === undefined) {
        this.sandboxInit = Number(match[1]);
        if (this.dead) this.killSandbox();
      }
    });
    info.on("error", () => undefined);
    info.unref();
  }

  /** A sandbox whose pid arrived after the child was killed: its processes are killed too. */
  private killSandbox(): void {
    try {
      process.kill(-this.sandboxInit!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  onDeath(listener: (child: SandboxChild) => void): void {
    this.deathListeners.push(listener);
  }

  /** Runs execute with `inputText` (JSON) in the child; `onCall` serves its nested calls. */
  run(callId: string, idempotencyKey: string | undefined, inputText: string, onCall: NestedCall): Promise<Answer> {
    const idem = idempotencyKey === undefined ? "" : `,"idem":${JSON.stringify(idempotencyKey)}`;
    return this.request(
      (id) => `{"t":"run","id":${JSON.stringify(id)},"callId":${JSON.stringify(callId)}${idem},"input":${inputText}}`,
      onCall,
    );
  }

  /** Runs the tool's Standard Schema for one side; with `wantValue` false only the verdict comes back. */
  validate(side: "input" | "output", valueText: string, wantValue: boolean): Promise<Answer> {
    return this.request(
      (id) =>
        `{"t":"validate","id":${JSON.stringify(id)},"side":${JSON.stringify(side)},"wantValue":${wantValue},"value":${valueText}}`,
      undefined,
    );
  }

  /** Kills the process group now and settles whatever is pending with `death`. */
  kill(death: Death): void {
    this.die(death);
  }

  private request(frame: (id: string) => string, onCall: NestedCall | undefined): Promise<Answer> {
    if (!this.idle)
      return Promise.resolve({ t: "died", death: this.death ?? { by: "protocol", why: "was asked twice at once" } });
    const id = `${this.secret}.${++this.requests}`;
    this.exchange.begin(id, onCall !== undefined);
    return new Promise((resolve) => {
      this.pending = { id, resolve, onCall };
      this.write(frame(id));
    });
  }

  private write(text: string): void {
    if (this.dead || this.channel === undefined || this.channel.destroyed) return;
    this.channel.write(encodeFrame(text));
  }

  private onData(chunk: Buffer): void {
    for (const event of this.exchange.receive(chunk)) {
      // Serving one nested call can end the child (its parent call was stopped for the run's budget):
      // what else arrived in the same read is dropped with it.
      if (this.dead) return;
      switch (event.kind) {
        case "ready":
          this.resolveStarted({ ok: true });
          break;
        case "load-failed":
          // The child ends itself after saying why; it is never used.
          this.resolveStarted({ ok: false, code: event.code, message: event.message });
          this.die({ by: "retired" });
          break;
        case "call":
          this.serveNested(this.pending!, event.sub, event.name, event.args);
          break;
        case "answer": {
          const pending = this.pending!;
          this.pending = undefined;
          pending.resolve(event.answer);
          if (event.answer.t === "fail" && event.answer.fatal) this.die({ by: "retired" });
          break;
        }
        case "violation":
          this.violate(event.why);
          break;
      }
    }
  }

  private serveNested(pending: Pending, sub: number, name: string, args: unknown): void {
    const answer = (field: string) => {
      // A nested call that ends after its parent's answer has no one to go to.
      if (this.pending !== pending || !this.busy) return;
      const frame = `{"t":"nested","id":${JSON.stringify(pending.id)},"sub":${sub},${field}}`;
      // Never a frame the child's reader would refuse (it would end the child as a protocol error):
      // an outcome past the cap reaches the tool as a failed context.call instead.
      if (frame.length > this.inboundCap / 3 && Buffer.byteLength(frame) > this.inboundCap) {
        const error = `the outcome of nested call "${name}" is ${Buffer.byteLength(frame)} bytes as a frame, over the ${this.inboundCap}-byte cap of the sandbox channel`;
        this.write(`{"t":"nested","id":${JSON.stringify(pending.id)},"sub":${sub},"error":${JSON.stringify(error)}}`);
        return;
      }
      this.write(frame);
    };
    pending.onCall!(name, args).then(
      (outcome) => answer(`"outcome":${JSON.stringify(outcome)}`),
      (thrown: unknown) => answer(`"error":${JSON.stringify(thrownText(thrown))}`),
    );
  }

  private violate(why: string): void {
    this.die({ by: "protocol", why });
  }

  private onChannelEnd(): void {
    if (this.dead) return;
    // The process is probably exiting; if it is not gone soon, it closed its channel on purpose.
    setTimeout(() => this.violate("closed its channel"), CHANNEL_CLOSED_GRACE_MS).unref();
  }

  private die(death: Death): void {
    if (this.dead) return;
    this.dead = true;
    this.exchange.close();
    this.death = death;
    if (!this.exited && this.pid !== undefined) {
      // Under the OS layer, bwrap's processes inside the sandbox are in a session of their own: the node process and
      // its sandbox's first process are killed directly; killing bwrap alone would also end them (--die-with-parent
      // and the pid namespace), but only after the kernel delivers that.
      for (const target of [
        this.nodePid !== this.pid ? this.nodePid : undefined,
        this.sandboxInit === undefined ? undefined : -this.sandboxInit,
      ]) {
        if (target === undefined) continue;
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      try {
        process.kill(process.platform === "win32" ? this.pid : -this.pid, "SIGKILL");
      } catch {
        try {
          this.process.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      }
    }
    this.channel?.destroy();
    // Its egress ends with it: requests in flight are cut and logged for the call's receipt now.
    this.spec.egress?.close();
    this.resolveStarted({ ok: false, death });
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve({ t: "died", death });
    for (const listener of this.deathListeners.splice(0)) listener(this);
  }
}
