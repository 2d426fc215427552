/**
 * A refusal the user can act on: a message-catalogue key under `errors.` plus its
 * parameters. Thrown by the rules and use cases, rendered by one function in the
 * user's own language (a refusal is private). Parameters must never carry a secret value;
 * a parameter naming a message ("@system.fate") is shown in that language too.
 */
import type { ErrorKey } from "../i18n/types.js";

export class DomainError extends Error {
  constructor(
    readonly code: ErrorKey,
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(code);
    this.name = "DomainError";
  }
}

export function refuse(code: ErrorKey, params: Record<string, string | number> = {}): never {
  throw new DomainError(code, params);
}
