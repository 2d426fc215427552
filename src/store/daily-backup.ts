import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { writeBackup } from "./backup.js";

/** A daily backup's file name: its time in UTC, so names sort as times whatever the time zone. */
const DAILY_FILE = /^storybot-\d{8}T\d{6}Z\.backup\.gz$/;

export function dailyBackupName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `storybot-${stamp}.backup.gz`;
}

/** The daily backups in `dir`, oldest first. */
export async function dailyBackups(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => DAILY_FILE.test(name)).sort();
}

/** When the newest daily backup in `dir` was written (seconds since the epoch), or 0 if there is none. */
export async function lastDailyBackupSeconds(dir: string): Promise<number> {
  const newest = (await dailyBackups(dir)).at(-1);
  if (!newest) return 0;
  const { mtimeMs } = await stat(path.join(dir, newest)).catch(() => ({ mtimeMs: 0 }));
  return Math.floor(mtimeMs / 1000);
}

/** The next time the local clock shows `hour`:00 after `now`. */
export function nextBackupTime(now: Date, hour: number): Date {
  const next = new Date(now);
  next.setHours(hour, 0, 0, 0);
  if (next.getTime() <= now.getTime()) {
    next.setDate(next.getDate() + 1);
    next.setHours(hour, 0, 0, 0); // across a daylight-saving change the same wall-clock hour
  }
  return next;
}

export interface BackupClock {
  now(): Date;
  setTimeout(run: () => void, ms: number): { unref?(): unknown };
  clearTimeout(timer: unknown): void;
}

const realClock: BackupClock = {
  now: () => new Date(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

interface BackupLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DailyBackups {
  /** Takes a backup now and rotates; resolves whether it succeeded (failures are logged, never thrown). */
  runNow(): Promise<boolean>;
  stop(): void;
}

/**
 * Takes a backup of the database every day at `hour` (local time) into `dir`, keeping the newest
 * `keep`. A failure is logged as an error and leaves the earlier backups in place; nothing it does
 * can stop the bot. If the newest backup is more than a day old when it starts (a machine that is
 * off at that hour), one is taken `catchUpMs` after the start as well.
 */
export function startDailyBackups(options: {
  databaseUrl: string;
  dir: string;
  keep: number;
  hour: number;
  log: BackupLog;
  clock?: BackupClock;
  catchUpMs?: number;
}): DailyBackups {
  const { databaseUrl, dir, keep, hour, log } = options;
  const clock = options.clock ?? realClock;
  let timer: unknown;
  let stopped = false;
  let running: Promise<boolean> | null = null;

  async function takeBackup(): Promise<boolean> {
    const started = clock.now();
    const file = path.join(dir, dailyBackupName(started));
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // What a run killed mid-way (kill -9, power cut) left behind.
      for (const name of await readdir(dir)) {
        if (name.endsWith(".partial") && DAILY_FILE.test(name.slice(0, -".partial".length))) {
          await rm(path.join(dir, name), { force: true });
        }
      }
      const summary = await writeBackup(databaseUrl, file, { now: started });
      const all = await dailyBackups(dir);
      const removed = all.slice(0, Math.max(0, all.length - keep));
      for (const name of removed) await rm(path.join(dir, name), { force: true });
      log.info(
        {
          file,
          rows: summary.rows,
          tables: summary.tables,
          ms: clock.now().getTime() - started.getTime(),
          removed,
        },
        "daily backup written",
      );
      return true;
    } catch (error) {
      if (stopped) log.info({ file, err: error }, "daily backup interrupted by the shutdown");
      else log.error({ err: error, file }, "daily backup failed; the earlier backups are kept");
      return false;
    }
  }

  function runNow(): Promise<boolean> {
    running ??= takeBackup().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(at: Date): void {
    if (stopped) return;
    const handle = clock.setTimeout(
      () => {
        void runNow().then(() => schedule(nextBackupTime(clock.now(), hour)));
      },
      Math.max(0, at.getTime() - clock.now().getTime()),
    );
    handle.unref?.();
    timer = handle;
  }

  void (async () => {
    const last = await lastDailyBackupSeconds(dir);
    const now = clock.now();
    const catchUp = now.getTime() - last * 1000 > 25 * 3600_000;
    const daily = nextBackupTime(now, hour);
    const soon = new Date(now.getTime() + (options.catchUpMs ?? 10 * 60_000));
    schedule(catchUp && soon < daily ? soon : daily);
    log.info({ dir, keep, next: (catchUp && soon < daily ? soon : daily).toISOString() }, "daily backups on");
  })();

  return {
    runNow,
    stop() {
      stopped = true;
      clock.clearTimeout(timer);
    },
  };
}

/** The daily backups of the embedded database (none with DATABASE_URL, or BACKUP_KEEP=0). */
export function dailyBackupsOf(
  config: { DATA_DIR: string; BACKUP_KEEP: number; BACKUP_HOUR: number },
  embedded: { url: string } | null,
  log: BackupLog,
): DailyBackups | null {
  if (!embedded || config.BACKUP_KEEP === 0) return null;
  return startDailyBackups({
    databaseUrl: embedded.url,
    dir: backupDirOf(config),
    keep: config.BACKUP_KEEP,
    hour: config.BACKUP_HOUR,
    log,
  });
}

/** Where the daily backups go: DATA_DIR/backups. */
export const backupDirOf = (config: { DATA_DIR: string }) => path.join(config.DATA_DIR, "backups");
