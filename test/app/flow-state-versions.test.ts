import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFlowKind, typedFlow } from "../../src/app/flows.js";
import type { Flow } from "../../src/generated/prisma/client.js";

/** A stored row as PostgreSQL gives it back (only what typedFlow reads matters). */
function row(state: unknown, stateVersion: number): Flow {
  const at = new Date("2026-12-01T12:00:00Z");
  return {
    id: 7,
    tableId: 1,
    kind: "mw.conflict",
    status: "open",
    state: state as Flow["state"],
    stateVersion,
    panelChannelId: null,
    panelMessageId: null,
    createdByUserId: "u1",
    createdAt: at,
    updatedAt: at,
    closedAt: null,
  };
}

// A kind whose shape changed once: version 1 had no `round`, version 2 counts rounds from 1.
const kind = defineFlowKind({
  kind: "mw.conflict",
  version: 2,
  schema: z.object({ round: z.number().int().min(1), sides: z.array(z.string()) }),
  upgrades: { 1: (old: { sides: string[] }) => ({ round: 1, ...old }) },
});

describe("a flow's stored state", () => {
  it("saved in the previous shape is upgraded on load, and is then of the current version", () => {
    const loaded = typedFlow(kind, row({ sides: ["a", "b"] }, 1));
    expect(loaded.state).toEqual({ round: 1, sides: ["a", "b"] });
    expect(loaded.stateVersion).toBe(2);
  });

  it("the upgrade keeps what an older row already had", () => {
    expect(typedFlow(kind, row({ round: 3, sides: [] }, 1)).state).toEqual({ round: 3, sides: [] });
  });

  it("of the current version loads as it is", () => {
    expect(typedFlow(kind, row({ round: 2, sides: ["a"] }, 2)).state).toEqual({ round: 2, sides: ["a"] });
  });

  it("that does not fit its schema fails loudly, naming the flow and the field", () => {
    expect(() => typedFlow(kind, row({ round: 0, sides: [] }, 2))).toThrow(/flow 7 \(mw\.conflict\).*round/);
  });

  it("written by a newer bot is not read by an older one", () => {
    expect(() => typedFlow(kind, row({ round: 1, sides: [] }, 3))).toThrow(/newer/);
  });

  it("of another kind is refused", () => {
    expect(() => typedFlow(kind, { ...row({ round: 1, sides: [] }, 2), kind: "mw.duel" })).toThrow(
      /mw\.duel/,
    );
  });

  it("under test, a schema that would drop a stored field fails (it would be lost on the next save)", () => {
    expect(() => typedFlow(kind, row({ round: 1, sides: [], forgotten: true }, 2))).toThrow(
      /drops or changes/,
    );
  });

  it("a kind whose version has no upgrade path cannot be defined", () => {
    expect(() => defineFlowKind({ kind: "mw.duel", version: 2, schema: z.object({}), upgrades: {} })).toThrow(
      /no upgrade from state version 1/,
    );
  });
});
