import { readdirSync, readFileSync } from "node:fs";

/**
 * The host pid of the process bwrap started inside its sandbox: the child of bwrap's first process in the
 * sandbox's pid namespace (`init`, which bwrap reports). Linux offers no direct query for a process's children
 * without CONFIG_PROC_CHILDREN, so /proc is read: /proc/<pid>/task/<pid>/children where the kernel has it, else
 * every /proc/<pid>/stat for the one whose parent is `init`. Undefined while it has not been started yet.
 */
export function sandboxedPid(init: number): number | undefined {
  try {
    const listed = readFileSync(`/proc/${init}/task/${init}/children`, "latin1").trim();
    if (listed !== "") return Number(listed.split(" ")[0]);
  } catch {
    // No CONFIG_PROC_CHILDREN: scan.
  }
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1");
    } catch {
      continue;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so the fields are read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === init) return Number(entry);
  }
  return undefined;
}
