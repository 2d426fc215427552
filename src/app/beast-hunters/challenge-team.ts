/** A challenge's team moves, with several hunters (docs/rules/beast-hunters.md §2.5): help, switch target, pass advantage. */
import { refuse } from "../../rules/errors.js";
import {
  actingParticipant,
  action,
  nameIn,
  onChallenge,
  participantId,
  requirePlaying,
} from "./challenge.js";
import { severalHunters, teamActionsView } from "./challenge-view.js";

/**
 * The panel's team actions button (several hunters only): a private menu of help, switch target
 * and pass advantage for the one who clicks, if it is their turn.
 */
export const challengeTeam = onChallenge(
  "challenge.team",
  { mutates: false, ephemeral: true },
  async ({ ctx, table, flow, state }) => {
    requirePlaying(state);
    if (!severalHunters(state)) refuse("errors.bh.multiHunterOnly");
    const actor = await actingParticipant(ctx, table, state, undefined, { turnAction: true });
    if (state.pendingBonus)
      refuse("errors.bh.bonusPending", { name: nameIn(state, state.pendingBonus.actor) });
    if (state.turn !== actor) refuse("errors.bh.notYourTurn", { name: nameIn(state, state.turn) });
    return { reply: teamActionsView(ctx.userLang, flow.id, state, actor) };
  },
);

export const challengeHelp = action("challenge.help", async ({ intent, actor, state }) => ({
  type: "help",
  actor: await actor(),
  helped: participantId(state, intent.hunter)!,
  trait: intent.trait,
}));

export const challengeSwitch = action("challenge.switch", async ({ intent, actor, state }) => ({
  type: "switchTarget",
  actor: await actor(),
  from: participantId(state, intent.from)!,
  to: participantId(state, intent.to)!,
  points: intent.points ?? null,
}));

export const challengePass = action("challenge.pass", async ({ intent, actor, state }) => {
  const id = await actor();
  const me = state.participants.find((p) => p.id === id)!;
  const opponents = state.participants.filter((p) => p.side !== me.side);
  const target =
    participantId(state, intent.target) ??
    (opponents.length === 1 ? opponents[0]!.id : refuse("errors.bh.chooseTarget"));
  return {
    type: "passAdvantage",
    actor: id,
    to: participantId(state, intent.to)!,
    target,
    points: intent.points ?? null,
    switchTo: participantId(state, intent.switchTo),
  };
});
