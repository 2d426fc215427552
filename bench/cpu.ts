import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";

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

function processJiffies(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}

function pidsNamed(name: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === name) out.push(Number(entry));
    } catch {}
  }
  return out;
}

/**
 * Where the machine's CPU went during a phase: the bot, PostgreSQL, the benchmark itself (double +
 * load), and everything else (other work on the machine makes the numbers noisy; the report says so).
 */
export class CpuMeter {
  private start: CpuSnapshot | null = null;

  constructor(private readonly groups: () => Record<string, number[]>) {}

  private snapshot(): CpuSnapshot {
    const { busy, total } = machineJiffies();
    const byGroup: Record<string, number> = {};
    for (const [group, pids] of Object.entries(this.groups())) {
      byGroup[group] = pids.reduce((sum, pid) => sum + processJiffies(pid), 0);
    }
    return { at: performance.now(), busy, total, byGroup };
  }

  begin(): void {
    this.start = this.snapshot();
  }

  /** Shares of the whole machine (1 = every core busy) per group, plus "other". */
  end(): Record<string, number> {
    const start = this.start;
    const end = this.snapshot();
    if (!start) return {};
    const total = end.total - start.total || 1;
    const out: Record<string, number> = {};
    let ours = 0;
    for (const group of Object.keys(end.byGroup)) {
      const used = (end.byGroup[group] ?? 0) - (start.byGroup[group] ?? 0);
      ours += used;
      out[group] = Math.round((used / total) * 1000) / 1000;
    }
    out.other = Math.max(0, Math.round(((end.busy - start.busy - ours) / total) * 1000) / 1000);
    out.idle = Math.round(((total - (end.busy - start.busy)) / total) * 1000) / 1000;
    return out;
  }
}

export const postgresPids = () => pidsNamed("postgres");
export const coreCount = () => cpus().length;
