/**
 * A challenge's actions (docs/rules/beast-hunters.md §2.5): activate and reassign traits, maneuver,
 * the GM's offers, strike, neutralise and restore, give up, the fatal choice, skip.
 */
import {
  type ChallengeAction,
  type ChallengeState,
  GM_SIDE,
  type TraitRole,
} from "../../rules/beast-hunters/index.js";
import { refuse } from "../../rules/errors.js";
import { actingCharacter, isGm } from "../access.js";
import { findOpenFlow } from "../flows.js";
import { nameKey } from "../names.js";
import { action, onChallenge, participantId, play, splitList } from "./challenge.js";
import { challengeFlow } from "./flow-states.js";
import {
  findNegotiation,
  giveUpInNegotiation,
  preActivateInNegotiation,
  traitAndRole as traitWithRole,
} from "./negotiation.js";
import { defineBhUseCase } from "./use-cases.js";

const activateInChallenge = action("challenge.activate", async ({ intent, actor }) => ({
  type: "activate",
  actor: await actor(),
  trait: intent.trait,
  as: intent.as,
}));

/**
 * `/challenge activate`: in a challenge, the Activate action; during a negotiation (no challenge
 * yet), a pre-activation — the hunter's own trait, or the GM's side's in phase 3 (the GM names a
 * hunter with `character` to act for an absent player).
 */
export const challengeActivate = defineBhUseCase(
  "challenge.activate",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const intent = ctx.intent;
    const challenge = await findOpenFlow(ctx.tx, challengeFlow, table.id);
    const negotiation =
      intent.flowId === undefined && !challenge ? await findNegotiation(ctx, table.id) : null;
    if (!negotiation) return activateInChallenge.run(ctx);
    const gm = isGm(table, ctx.actor);
    if (gm && !intent.character)
      return preActivateInNegotiation(ctx, table, negotiation, {
        by: GM_SIDE,
        trait: intent.trait,
        as: intent.as,
      });
    const character = await actingCharacter(ctx, intent.character, { gmMayActForPlayers: gm });
    if (!negotiation.state.hunters.some((h) => h.id === String(character.id)))
      refuse("errors.bh.notInNegotiation", { name: character.name });
    const actedFor = gm && character.ownerUserId !== ctx.actor.userId;
    return preActivateInNegotiation(
      ctx,
      table,
      negotiation,
      { by: String(character.id), trait: intent.trait, as: intent.as },
      actedFor ? { actedForBy: character.name } : {},
    );
  },
);

/**
 * Reassign any active traits in one action: `trait` names one or several (comma-separated), each
 * set to `as`, or marked `Name:A` / `Name:D` to swap several ways at once.
 */
export const challengeReassign = action("challenge.reassign", async ({ intent, actor }) => {
  const roles: Record<string, TraitRole> = {};
  for (const text of splitList(intent.trait)) {
    const marked = /:\s*\S+$/.test(text) ? traitWithRole(text) : { trait: text, as: intent.as as TraitRole };
    roles[marked.trait] = marked.as;
  }
  return { type: "reassign", actor: await actor(), roles };
});

/**
 * The panel's action menu (a select, and buttons that carry a pick): `attack:<trait>`,
 * `defence:<trait>`, `flip:<trait>` (activate or reassign), `n:<owner id>:<resource>`
 * (neutralise), `r:<resource>` (restore), `m:<target id>` (maneuver), `x:<target id>:<dice>`
 * (strike); from the team actions: `h:<hunter id>:<trait>` (help), `s:<from id>:<to id>`
 * (switch target), `p:<to id>:<target id>[:<switch-to id>]` (pass advantage). Ids, not names,
 * keep custom_ids short; a pick that no longer fits the state is refused by the rules.
 */
export const challengeMenu = action(
  "challenge.menu",
  async ({ intent, actor, state }): Promise<ChallengeAction> => {
    if (Array.isArray(intent.pick)) return flipAll(state, await actor(), intent.pick as string[]);
    const pick = intent.pick as string;
    const at = pick.indexOf(":");
    const kind = pick.slice(0, at);
    const rest = pick.slice(at + 1);
    // Participant ids never contain ":"; trait and resource names may.
    const [first = "", second = ""] = rest.split(":");
    const afterFirst = rest.slice(first.length + 1);
    const id = await actor();
    switch (kind) {
      case "attack":
      case "defence":
        return { type: "activate", actor: id, trait: rest, as: kind };
      case "flip": {
        const current = state.participants
          .find((p) => p.id === id)
          ?.traits.find((tr) => tr.name === rest)?.active;
        return {
          type: "reassign",
          actor: id,
          roles: { [rest]: current === "attack" ? "defence" : "attack" },
        };
      }
      case "r":
        return { type: "restore", actor: id, resource: rest };
      case "n":
        if (!rest.includes(":")) refuse("errors.staleAction");
        return { type: "neutralise", actor: id, target: first, resource: afterFirst };
      case "m":
        return { type: "maneuver", actor: id, target: known(state, rest) };
      case "x":
        return { type: "strike", actor: id, target: known(state, first), dice: diceOf(second) };
      case "h":
        if (!rest.includes(":")) refuse("errors.staleAction");
        return { type: "help", actor: id, helped: known(state, first), trait: afterFirst };
      case "s":
        return {
          type: "switchTarget",
          actor: id,
          from: known(state, first),
          to: known(state, second),
          points: null,
        };
      case "p": {
        const switchTo = rest.split(":")[2];
        return {
          type: "passAdvantage",
          actor: id,
          to: known(state, first),
          target: known(state, second),
          points: null,
          switchTo: switchTo === undefined ? null : known(state, switchTo),
        };
      }
      default:
        refuse("errors.staleAction");
    }
  },
);

/** Several `flip:<trait>` picks: one Reassign action flipping each (anything else picked with them is refused). */
function flipAll(state: ChallengeState, id: string, picks: string[]): ChallengeAction {
  if (!picks.every((p) => p.startsWith("flip:"))) refuse("errors.bh.oneActionAtATime");
  const me = state.participants.find((p) => p.id === id);
  const roles: Record<string, TraitRole> = {};
  for (const pick of picks) {
    const name = pick.slice("flip:".length);
    const current = me?.traits.find((tr) => tr.name === name)?.active;
    roles[name] = current === "attack" ? "defence" : "attack";
  }
  return { type: "reassign", actor: id, roles };
}

/** A participant id from a pick: one this challenge has, or the pick is stale (or forged). */
function known(state: ChallengeState, id: string): string {
  if (!state.participants.some((p) => p.id === id)) refuse("errors.staleAction");
  return id;
}

function diceOf(text: string): number {
  const dice = Number(text);
  if (!Number.isInteger(dice) || dice < 1 || dice > 25) refuse("errors.staleAction");
  return dice;
}

export const challengeManeuver = action("challenge.maneuver", async ({ intent, actor, state }) => ({
  type: "maneuver",
  actor: await actor(),
  target: participantId(state, intent.target),
}));

export const challengeOffer = onChallenge(
  "challenge.offer",
  { access: "gm", mutates: true, ephemeral: false },
  async ({ ctx, table, flow, state }) => {
    const { neutralize, restore, pick } = ctx.intent;
    // The panel's menu with several targets carries both: `<points>:<target id>`.
    const picked = pick === undefined ? null : /^(\d{1,3}):(.+)$/.exec(pick);
    if (pick !== undefined && (!picked || !state.participants.some((p) => p.id === picked[2])))
      refuse("errors.staleAction");
    const points = picked ? Number(picked[1]) : (ctx.intent.points ?? refuse("errors.bh.offerNeedsPoints"));
    const target = picked ? picked[2]! : participantId(state, ctx.intent.target);
    let built: ChallengeAction;
    if (restore) built = { type: "offerRestore", resource: restore };
    else if (neutralize) {
      const target =
        participantId(state, ctx.intent.target) ??
        ownerOf(state, neutralize, (p) => p.side === "gm") ??
        refuse("errors.bh.noSuchResource", { resource: neutralize.slice(0, 64) });
      built = { type: "offerNeutralise", target, resource: neutralize, margin: points };
    } else built = { type: "offerAdvantage", points, target };
    return play(ctx, table, flow, built);
  },
);

function ownerOf(
  state: ChallengeState,
  resource: string,
  side: (p: ChallengeState["participants"][number]) => boolean,
) {
  const owners = state.participants.filter(
    (p) => side(p) && p.resources.some((r) => nameKey(r.name) === nameKey(resource)),
  );
  if (owners.length > 1) refuse("errors.bh.chooseTarget");
  return owners[0]?.id ?? null;
}

export const challengeAccept = action("challenge.accept", async ({ actor }) => ({
  type: "accept",
  actor: await actor(),
}));

export const challengeStrike = action("challenge.strike", async ({ intent, actor, state }) => ({
  type: "strike",
  actor: await actor(),
  dice: intent.dice,
  target: participantId(state, intent.target),
}));

export const challengeNeutralize = action("challenge.neutralize", async ({ intent, actor, state }) => {
  const id = await actor();
  const me = state.participants.find((p) => p.id === id)!;
  const target =
    participantId(state, intent.target) ??
    ownerOf(state, intent.resource, (p) => p.side !== me.side) ??
    refuse("errors.bh.noSuchResource", { resource: String(intent.resource).slice(0, 64) });
  return { type: "neutralise", actor: id, target, resource: intent.resource };
});

export const challengeRestore = action("challenge.restore", async ({ intent, actor }) => ({
  type: "restore",
  actor: await actor(),
  resource: intent.resource,
}));

const giveUpInChallenge = action("challenge.giveup", async ({ actor }) => ({
  type: "giveUp",
  actor: await actor(),
}));

/** `/challenge giveup`: in a challenge, the Give up action; during a negotiation, the hunter leaves it (free). */
export const challengeGiveUp = defineBhUseCase(
  "challenge.giveup",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const negotiation = await negotiationInsteadOfChallenge(ctx, table, ctx.intent.flowId);
    if (!negotiation) return giveUpInChallenge.run(ctx);
    return giveUpInNegotiation(ctx, table, negotiation, ctx.intent.character);
  },
);

/** The open negotiation a command means when no challenge is open (a panel's control names its own flow). */
export async function negotiationInsteadOfChallenge(
  ctx: Parameters<typeof findNegotiation>[0],
  table: { id: number },
  flowId: number | undefined,
) {
  if (flowId !== undefined) return null;
  if (await findOpenFlow(ctx.tx, challengeFlow, table.id)) return null;
  return findNegotiation(ctx, table.id);
}

export const challengeFate = action("challenge.fate", async ({ intent, actor }) => ({
  type: "chooseFate",
  actor: await actor(),
  choice: intent.choice,
}));

/** `/challenge skip`: let a free action go; with none pending, pass the turn (the GM: an absent player's, by `character`). */
export const challengeSkip = action("challenge.skip", async ({ actor, state }): Promise<ChallengeAction> => {
  const id = await actor();
  return state.pendingBonus?.actor === id
    ? { type: "declineBonus", actor: id }
    : { type: "passTurn", actor: id };
});
