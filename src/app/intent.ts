/**
 * An intent is what a user asked for, independent of how (slash command, button, select,
 * modal): `{ type: "conflict.assist", flowId: 3, target: "Akio" }`. Every intent is
 * validated by its use case's zod schema, whichever path it came by.
 */
export interface Intent {
  type: string;
  [field: string]: unknown;
}
