/**
 * Children run in their own session, so they would outlive a host that exits without stopping them.
 * Every live child's pid is kept here and its process group is killed when the host process exits,
 * however it exits (an idle child also ends by itself when its channel closes).
 */
const live = new Set<number>();
let installed = false;

export function rememberChild(pid: number): void {
  live.add(pid);
  if (!installed) {
    installed = true;
    process.once("exit", killAll);
  }
}

export function forgetChild(pid: number): void {
  live.delete(pid);
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
