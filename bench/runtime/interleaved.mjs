// Times named sides in one process: each run once to warm up, then `rounds` rounds of every side in turn (so a change
// in the machine's load falls on all sides alike), measured in CPU time (user + system). Returns each side's median, ms.
export async function interleavedMedians(sides, rounds) {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const times = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (const side of Object.values(sides)) await side();
  for (let r = 0; r < rounds; r++) {
    for (const [name, side] of Object.entries(sides)) {
      const t = cpuMs();
      await side();
      times[name].push(cpuMs() - t);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, median(xs)]));
}
