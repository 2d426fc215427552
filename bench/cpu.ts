import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";

/** Clock ticks per second, the unit of /proc's CPU times (100 on Linux almost always). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (jiffies) of the whole machine and of given processes, from /proc, for load accounting. */
interface CpuSnapshot {
  at: number;
  busy: number;
  total: number;
  byGroup: Record<string, number>;
}

function machineJiffies(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] as string;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** The fields of /proc/<pid>/stat after the command name (field 3, the state, is index 0). */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU time of one process (utime + stime); with `reapedChildren`, also that of its children that exited. */
function processJiffies(pid: number, reapedChildren = false): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  const own = Number(fields[11]) + Number(fields[12]);
  return reapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
}

/** Jiffies as milliseconds. */
export function jiffiesToMs(jiffies: number): number {
  return (jiffies * 1000) / CLOCK_TICKS;
}

/** CPU time of these processes together. */
export function jiffiesOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + processJiffies(pid), 0);
}

/**
 * CPU time of one PostgreSQL server — its postmaster (pid from `postmaster.pid` in its data
 * directory), every live child (backends, checkpointer, WAL writer, autovacuum, …) and the children
 * that already exited — and of no other server on the machine (other work may run its own).
 */
export function serverJiffies(dataDir: string): number {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
  } catch {
    return 0;
  }
  let total = processJiffies(postmaster, true);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === postmaster) total += processJiffies(Number(entry));
  }
  return total;
}

/**
 * Where the machine's CPU went during a phase: the bot, PostgreSQL, the benchmark itself (double +
 * load), and everything else (other work on the machine makes the numbers noisy; the report says so).
 */
export class CpuMeter {
  private start: CpuSnapshot | null = null;

  /** `groups` reads each group's CPU time so far (jiffies: `jiffiesOf`, `serverJiffies`). */
  constructor(private readonly groups: () => Record<string, number>) {}

  private snapshot(): CpuSnapshot {
    const { busy, total } = machineJiffies();
    return { at: performance.now(), busy, total, byGroup: this.groups() };
  }

  begin(): void {
    this.start = this.snapshot();
  }

  /**
   * `shares`: of the whole machine (1 = every core busy) per group, plus "other" and "idle";
   * `ms`: each group's CPU milliseconds over the phase.
   */
  end(): { shares: Record<string, number>; ms: Record<string, number> } {
    const start = this.start;
    const end = this.snapshot();
    if (!start) return { shares: {}, ms: {} };
    const total = end.total - start.total || 1;
    const shares: Record<string, number> = {};
    const ms: Record<string, number> = {};
    let ours = 0;
    for (const group of Object.keys(end.byGroup)) {
      const used = (end.byGroup[group] ?? 0) - (start.byGroup[group] ?? 0);
      ours += used;
      shares[group] = Math.round((used / total) * 1000) / 1000;
      ms[group] = jiffiesToMs(used);
    }
    shares.other = Math.max(0, Math.round(((end.busy - start.busy - ours) / total) * 1000) / 1000);
    shares.idle = Math.round(((total - (end.busy - start.busy)) / total) * 1000) / 1000;
    return { shares, ms };
  }
}

export const coreCount = () => cpus().length;
