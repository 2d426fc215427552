/**
 * The common commands' flows as stored (`flow.state`): a table import waiting for its GM's
 * confirmation. Each kind's schema is checked on every load; when a shape changes, its version
 * goes up and an upgrade turns a state saved by the previous version into the current one
 * (docs/ARCHITECTURE.md, "Changing a flow's shape").
 */
import { z } from "zod";
import { defineFlowKind } from "../flows.js";

const pendingImport = z.object({
  /** The uploaded file's name, as the confirmation named it. */
  name: z.string(),
  /** The backup file's whole text, read again (and checked again) when confirmed. */
  text: z.string(),
});
export type PendingImport = z.infer<typeof pendingImport>;

/**
 * `table.import`: `/table import replace:true` keeps the file here until the GM presses the
 * confirmation button (a button holds only the flow's id). Version 1.
 */
export const pendingImportFlow = defineFlowKind<PendingImport>({
  kind: "table.import",
  version: 1,
  schema: pendingImport,
});
