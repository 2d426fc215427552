import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { lastDailyBackupSeconds } from "./store/daily-backup.js";

export function createMetrics(options: { backupDir?: string } = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const interactions = new Counter({
    name: "storybot_interactions_total",
    help: "Interactions handled, by command and outcome (ok, refused, unavailable, error, duplicate).",
    labelNames: ["command", "outcome"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "storybot_interaction_seconds",
    help: "Time from receiving an interaction to finishing it.",
    labelNames: ["command"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
    registers: [registry],
  });
  const dbErrors = new Counter({
    name: "storybot_database_errors_total",
    help: "Interactions that failed because PostgreSQL was unreachable.",
    registers: [registry],
  });
  const reconnects = new Counter({
    name: "storybot_gateway_reconnects_total",
    help: "Gateway shard reconnections (resume or re-identify).",
    registers: [registry],
  });
  const connectionErrors = new Counter({
    name: "storybot_database_connection_errors_total",
    help: "PostgreSQL connections that broke (server restarted or unreachable); each is closed and replaced.",
    registers: [registry],
  });
  const processErrors = new Counter({
    name: "storybot_process_errors_total",
    help: "Errors no code path handled, caught at process level, by kind (unhandledRejection, uncaughtException).",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const { backupDir } = options;
  if (backupDir) {
    // Read from the files at each scrape: the process that takes the backups (the sharding
    // manager, with shards) is not always the one that serves the metrics.
    new Gauge({
      name: "storybot_backup_last_success_timestamp_seconds",
      help: "When the newest daily backup in DATA_DIR/backups was written (Unix time); 0: none yet.",
      registers: [registry],
      async collect() {
        this.set(await lastDailyBackupSeconds(backupDir));
      },
    });
  }
  return {
    registry,
    reconnects,
    connectionErrors,
    processErrors,
    observe(command: string, outcome: string, ms: number) {
      const name = command.split(" ")[0] ?? command;
      interactions.inc({ command: name, outcome });
      latency.observe({ command: name }, ms / 1000);
      if (outcome === "unavailable") dbErrors.inc();
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
