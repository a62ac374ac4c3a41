import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { childProcesses } from "./builtins.js";

/**
 * Children run in their own session, so they would outlive a host that does not stop them: neither the host's death
 * nor a terminal's Ctrl-C reaches them. Every live child's pid is kept here and its process group is killed when the
 * host process exits. A host ended by a signal it does not handle (SIGKILL, SIGTERM, SIGINT) runs no exit handler,
 * and an idle child then ends by itself when its channel closes, but a busy one (a synchronous loop) never reads that
 * (under the OS layer bwrap's --die-with-parent ends it too). So a sentinel, started with the first child, is told
 * each child as it starts and ends over a pipe, and kills the children still live when that pipe closes: the kernel
 * closes it when the host dies, however it dies (docs/decisions.md, "A sentinel kills the sandbox's children when
 * their host dies").
 */
const live = new Set<number>();
let installed = false;
let sentinel: ChildProcess | undefined | null;

/**
 * The sentinel: POSIX sh, reading "+<pid>" and "-<pid>" lines until its standard input ends, then killing the process
 * group of every pid still listed. ~1.5 MB and no start-up to speak of, in a session of its own (a terminal's Ctrl-C,
 * sent to the host's process group, must not end it first).
 */
export const SENTINEL = `live=' '
while IFS= read -r line; do
  case $line in
    +*) live="$live\${line#+} " ;;
    -*) pid=\${line#-}; case $live in *" $pid "*) live="\${live%% $pid *} \${live#* $pid }" ;; esac ;;
  esac
done
for pid in $live; do kill -KILL "-$pid" 2>/dev/null; done`;
const SHELL = "/bin/sh";

export function rememberChild(pid: number): void {
  live.add(pid);
  if (!installed) {
    installed = true;
    process.once("exit", killAll);
  }
  tellSentinel(`+${pid}\n`);
}

export function forgetChild(pid: number): void {
  live.delete(pid);
  tellSentinel(`-${pid}\n`);
}

function killAll(): void {
  for (const pid of live) {
    try {
      process.kill(process.platform === "win32" ? pid : -pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

/**
 * Writes `line` to the sentinel, started on first use. Where there is no /bin/sh (Windows, a distroless image) there
 * is none, and the exit handler is all there is; in a container whose first process is the host, the kernel ends
 * every process of the container with it.
 */
function tellSentinel(line: string): void {
  if (sentinel === undefined) sentinel = process.platform === "win32" || !existsSync(SHELL) ? null : startSentinel();
  if (sentinel === null || sentinel.stdin === null || sentinel.stdin.destroyed) return;
  sentinel.stdin.write(line);
}

function startSentinel(): ChildProcess | null {
  let started: ChildProcess;
  try {
    started = childProcesses().spawn(SHELL, ["-c", SENTINEL], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
      env: {},
    });
  } catch {
    return null;
  }
  // Never keeps the host alive: it ends when the host does.
  started.unref();
  started.stdin!.on("error", () => undefined);
  (started.stdin as unknown as { unref(): void }).unref();
  started.on("error", () => undefined);
  return started;
}
