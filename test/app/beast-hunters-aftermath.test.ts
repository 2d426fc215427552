import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ButtonView } from "../../src/app/views.js";
import { type AppHarness, createAppHarness } from "../support/app.js";

const GM = { id: "550000000000000001", name: "Gail" };
const ADA = { id: "550000000000000002", name: "Ada" };
const BO = { id: "550000000000000003", name: "Bo" };

interface Task {
  name: string;
  hunterDice: number;
  buyers: string[];
  result: { winner: string; vp: Record<string, number> } | null;
}

describe("Beast Hunters: after a won challenge", () => {
  let app: AppHarness;
  const flow = async () =>
    (
      await app.database.query<{
        status: string;
        state: {
          challenge: { status: string; tasks: Task[]; advantage: Record<string, Record<string, number>> };
        };
      }>("SELECT status, state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1")
    )[0]!;

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ada" });
    await app.run(BO, { type: "character.create", name: "Bo" });
    await app.run(ADA, { type: "reserve.set", total: 20, ceiling: 6 });
  });
  afterAll(async () => app.close());

  it("«Если охотник выиграл конфликт и у него ещё остались ОП, он может потратить их на дополнительные кубики … по 6»: the panel offers the die, pooled from the hunters", async () => {
    await app.run(GM, { type: "challenge.start", sphere: "physical", phase: 2, name: "Bandits" });
    await app.run(GM, { type: "challenge.offer", points: 4 });
    await app.run(ADA, { type: "challenge.accept" });
    await app.run(GM, { type: "challenge.skip" });
    await app.run(GM, { type: "challenge.offer", points: 2 });
    await app.run(BO, { type: "challenge.accept" });
    await app.run(ADA, { type: "challenge.task", name: "Fame", difficulty: 1 });
    await app.run(GM, { type: "challenge.task", name: "Fame", difficulty: 1 });
    const conceded = await app.run(GM, { type: "challenge.end", concede: true });
    expect((await flow()).state.challenge.status).toBe("aftermath");
    // The panel edit carries the extra-die button (6 AP, pooled): Ada has 4 and Bo 2.
    const edit = conceded.result.effects?.find((e) => e.kind === "editPanel");
    const buttons = (edit?.kind === "editPanel" ? (edit.view.rows ?? []) : []).flat() as ButtonView[];
    const extra = buttons.find((b) => b.intent.type === "challenge.achieve");
    expect(extra?.intent).toMatchObject({ task: "Fame", dice: 1, pool: true });
    await app.run(ADA, extra!.intent);
    const bought = (await flow()).state.challenge;
    expect(bought.tasks[0]).toMatchObject({ hunterDice: 1, result: null });
    expect(Object.values(bought.advantage).flatMap((byTarget) => Object.values(byTarget))).toEqual([0, 0]);
    // Rolled once both sides are ready.
    await app.run(ADA, { type: "challenge.resolve", task: "Fame" });
    expect((await flow()).state.challenge.tasks[0]!.result).toBeNull();
    await app.run(GM, { type: "challenge.resolve", task: "Fame" });
    const done = await flow();
    expect(done.state.challenge.tasks[0]!.result).not.toBeNull();
    expect(done.status).toBe("closed");
  });
});
