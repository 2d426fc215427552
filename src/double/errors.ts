/** A Discord-style error answer: HTTP status plus the JSON body Discord would send. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return this.errors
      ? { message: this.message, code: this.code, errors: this.errors }
      : { message: this.message, code: this.code };
  }
}

export type ErrorPath = ReadonlyArray<string | number>;

/**
 * Collects "Invalid Form Body" (50035) problems keyed by their path in the request body and nests
 * them the way Discord does: `{ "0": { "name": { "_errors": [{ code, message }] } } }`.
 */
export class FormErrors {
  private readonly problems: Array<{ path: ErrorPath; code: string; message: string }> = [];

  add(path: ErrorPath, code: string, message: string): void {
    this.problems.push({ path, code, message });
  }

  get count(): number {
    return this.problems.length;
  }

  /** Flat list, handy for tests: `"0.options.1.name: APPLICATION_COMMAND_INVALID_NAME"`. */
  list(): string[] {
    return this.problems.map((p) => `${p.path.join(".")}: ${p.code} (${p.message})`);
  }

  toJSON(): Record<string, unknown> {
    const root: Record<string, unknown> = {};
    for (const problem of this.problems) {
      let node = root;
      for (const key of problem.path) {
        const k = String(key);
        if (typeof node[k] !== "object" || node[k] === null) node[k] = {};
        node = node[k] as Record<string, unknown>;
      }
      const list = (node._errors as unknown[] | undefined) ?? [];
      list.push({ code: problem.code, message: problem.message });
      node._errors = list;
    }
    return root;
  }

  /** Throws 400 / 50035 when anything was collected. */
  throwIfAny(): void {
    if (this.problems.length > 0) throw new ApiError(400, 50035, "Invalid Form Body", this.toJSON());
  }
}

export const Errors = {
  unknownChannel: () => new ApiError(404, 10003, "Unknown Channel"),
  unknownGuild: () => new ApiError(404, 10004, "Unknown Guild"),
  unknownMember: () => new ApiError(404, 10007, "Unknown Member"),
  unknownMessage: () => new ApiError(404, 10008, "Unknown Message"),
  unknownUser: () => new ApiError(404, 10013, "Unknown User"),
  unknownWebhook: () => new ApiError(404, 10015, "Unknown Webhook"),
  unknownCommand: () => new ApiError(404, 10063, "Unknown application command"),
  unknownInteraction: () => new ApiError(404, 10062, "Unknown interaction"),
  alreadyAcknowledged: () => new ApiError(400, 40060, "Interaction has already been acknowledged."),
  unauthorized: () => new ApiError(401, 0, "401: Unauthorized"),
  missingAccess: () => new ApiError(403, 50001, "Missing Access"),
  cannotEditOthers: () => new ApiError(403, 50005, "Cannot edit a message authored by another user"),
  emptyMessage: () => new ApiError(400, 50006, "Cannot send an empty message"),
  cannotDmUser: () => new ApiError(403, 50007, "Cannot send messages to this user"),
  missingPermissions: () => new ApiError(403, 50013, "Missing Permissions"),
  invalidWebhookToken: () => new ApiError(401, 50027, "Invalid Webhook Token"),
  notFound: () => new ApiError(404, 0, "404: Not Found"),
};
