/**
 * A refusal the user can act on: a message-catalogue key under `errors.` plus its
 * parameters. Thrown by the rules and use cases, rendered by one function in the
 * user's language. Parameters must never carry a secret value.
 */
export class DomainError extends Error {
  /** The language to show it in, when the app knows the table's setting. */
  language?: "en" | "ru";

  constructor(
    readonly code: string,
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(code);
    this.name = "DomainError";
  }
}

export function refuse(code: string, params: Record<string, string | number> = {}): never {
  throw new DomainError(code, params);
}
