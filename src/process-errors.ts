import { interactionScope, type Logger } from "./log.js";
import type { Metrics } from "./metrics.js";

/**
 * Errors no code path handled. An unhandled rejection is logged (with the interaction it came from)
 * and counted, and the bot goes on. An uncaught exception may have left the process in a state
 * nobody can vouch for: it is logged and counted, and the process exits with code 1 for its
 * supervisor (npm start, Docker, systemd) to start a fresh one within seconds.
 */
export function handleProcessErrors(log: Logger, metrics?: Pick<Metrics, "processErrors">): void {
  const interactionId = () => interactionScope.getStore()?.interactionId;
  process.on("unhandledRejection", (reason) => {
    metrics?.processErrors.inc({ kind: "unhandledRejection" });
    log.error({ err: reason, interactionId: interactionId() }, "unhandled rejection");
  });
  process.on("uncaughtException", (error, origin) => {
    metrics?.processErrors.inc({ kind: "uncaughtException" });
    log.fatal(
      { err: error, origin, interactionId: interactionId() },
      "uncaught exception; exiting to be restarted",
    );
    log.flush?.();
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  });
}
