/**
 * Every button, select and form the Mountain Witch views build carries an intent its use case
 * accepts: at compile time (the views are typed against the area's catalogue, `mwIntents`) and,
 * here, at run time — each component's intent, completed as Discord completes it (a select puts
 * the chosen value into its field), passes the schema of the use case it names.
 */
import { describe, expect, it } from "vitest";
import { chooseUseCase } from "../../src/app/execute.js";
import type { Intent } from "../../src/app/intent.js";
import { conflictPanel } from "../../src/app/mountain-witch/conflict-view.js";
import { duelPanel, personalView } from "../../src/app/mountain-witch/duel-view.js";
import { roundPanel, rowView } from "../../src/app/mountain-witch/trust-view.js";
import { createRegistry } from "../../src/app/registry.js";
import type { ButtonView, MessageView, SelectView } from "../../src/app/views.js";
import type { GameTable } from "../../src/generated/prisma/client.js";
import { scriptedDice } from "../../src/rules/dice.js";
import {
  acceptDuel,
  addParticipant,
  type CharacterRef,
  challengeDuel,
  openConflict,
  openTrustRound,
  rollConflict,
  strike,
} from "../../src/rules/mountain-witch/index.js";

const registry = createRegistry();
const table = { system: "mountain-witch" } as GameTable;

const pc = (id: number, name: string): CharacterRef => ({
  id,
  name,
  kind: "pc",
  playerId: `5300000000000000${id}`,
  strength: "strong",
  status: "active",
});
const npc = (id: number, name: string): CharacterRef => ({ ...pc(id, name), kind: "npc", playerId: null });

/** Each component's intent as it comes back: a button's whole, a select's with its first option chosen. */
function intentsOf(view: MessageView): Intent[] {
  return (view.rows ?? [])
    .flat()
    .map((c) =>
      c.kind === "button"
        ? (c as ButtonView).intent
        : { ...(c as SelectView).intent, [(c as SelectView).field]: (c as SelectView).options[0]!.value },
    ) as Intent[];
}

function rejected(views: MessageView[]): { intent: Intent; problem: string }[] {
  const intents = views.flatMap(intentsOf);
  expect(intents.length).toBeGreaterThan(0);
  return intents.flatMap((intent) => {
    const parsed = chooseUseCase(registry.candidates(intent.type), table, intent.type).schema.safeParse(
      intent,
    );
    return parsed.success ? [] : [{ intent, problem: parsed.error.issues[0]!.message }];
  });
}

describe("Mountain Witch views' intents", () => {
  it("the conflict panel, before and after the roll: every button and menu fits its use case", () => {
    let open = openConflict({ mode: "opposed", title: null });
    open = addParticipant(open, pc(11, "Hamada"), "a");
    open = addParticipant(open, pc(12, "Kenji"), "a");
    open = addParticipant(open, npc(20, "Landslide"), "b");
    const rolled = rollConflict(open, scriptedDice([6, 2, 1])).state;
    expect(rejected([conflictPanel("en", 7, open), conflictPanel("ru", 7, rolled)])).toEqual([]);
  });

  it("the duel panel and a duellist's secret view, challenge to reveal: every button and menu fits", () => {
    const challenged = challengeDuel({
      challenger: pc(11, "Hamada"),
      opponent: pc(12, "Kenji"),
      lethal: false,
    });
    const rolling = acceptDuel(challenged, scriptedDice([5, 2]));
    const revealed = strike(rolling, "a", scriptedDice([]));
    expect(
      rejected([
        duelPanel("en", 8, challenged),
        duelPanel("en", 8, rolling),
        personalView("en", 8, rolling, pc(11, "Hamada").playerId!),
        duelPanel("ru", 8, revealed),
      ]),
    ).toEqual([]);
  });

  it("a trust round's panel and a giver's own row: every button fits", () => {
    const round = openTrustRound({
      chapter: 2,
      mode: "secret",
      giverIds: [11, 12],
      links: [
        { giverId: 11, holderId: 12, value: 2, points: 2 },
        { giverId: 12, holderId: 11, value: 1, points: 1 },
      ],
    });
    const names = new Map([
      [11, "Hamada"],
      [12, "Kenji"],
    ]);
    const giver = { id: 11, name: "Hamada" } as Parameters<typeof rowView>[3];
    expect(
      rejected([
        roundPanel("en", 9, { round, dmClosed: [12] }, names),
        rowView("en", 9, round, giver, names, true),
      ]),
    ).toEqual([]);
  });

  it("a button with a misspelled intent, a missing field or a wrong value does not compile", () => {
    const buttons: ButtonView[] = [
      // @ts-expect-error "duel.acept" is no intent
      { kind: "button", label: "x", intent: { type: "duel.acept", flowId: 1 } },
      // @ts-expect-error trust.edit needs the giver's characterId
      { kind: "button", label: "x", intent: { type: "trust.edit", flowId: 1 } },
      // @ts-expect-error a character is named, not numbered
      { kind: "button", label: "x", intent: { type: "darkfate.keep", character: 5 } },
      // @ts-expect-error no such damage quality
      { kind: "button", label: "x", intent: { type: "duel.damage", quality: "huge", flowId: 1 } },
    ];
    expect(buttons).toHaveLength(4);
  });
});
