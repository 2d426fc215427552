/**
 * Trust: `/trust show|matrix|set|submit|reveal` and the chapter's trust round (opened by
 * `/chapter next`, chapter.ts). In secret mode the round is collected in DMs (or ephemerally
 * in the channel when a player's DMs are closed): the GM sees who has submitted, never what,
 * and all changes are revealed together in one channel message.
 */
import { z } from "zod";
import type { Character, Flow, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { DomainError, refuse } from "../../rules/errors.js";
import {
  allTrustSubmitted,
  applyTrustChanges,
  proposeTrust,
  revealTrustRound,
  submitTrust,
  trustRoundVisibleTo,
} from "../../rules/mountain-witch/index.js";
import { activeTablesWithOwnedPlayerCharacter } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { findCharacter } from "../access.js";
import { lockTableForAction } from "../execute.js";
import {
  findOpenFlow,
  isFromOwnMessage,
  panelEdit,
  requireFlow,
  saveFlowState,
  type TypedFlow,
  typedFlow,
} from "../flows.js";
import { languageOfTable } from "../languages.js";
import { appendLog, appendLogAs } from "../log.js";
import type { ActionContext, ActionResult, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { type TrustRoundFlow, trustRoundFlow } from "./flow-states.js";
import { mwIntents } from "./intents.js";
import { mwTableState, ownCharacterAt, trustCharacters, trustLinks } from "./shared.js";
import { ownStartingValue, setStartingTrust } from "./starting-trust.js";
import { changeLines, matrixLines, nameMap, roundPanel, rowView } from "./trust-view.js";
import { dmAction, gmAction, mwAction } from "./use-cases.js";

/**
 * Reveals the round: applies every change at once (validated again), refills points,
 * logs each change, closes the flow and returns the one channel message and panel edit.
 */
async function reveal(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang">,
  table: GameTable,
  flow: TypedFlow<TrustRoundFlow>,
  force: boolean,
): Promise<Effect[]> {
  const { state: round, changes, unsubmitted } = revealTrustRound(flow.state.round, { force });
  const links = applyTrustChanges(await trustLinks(ctx.tx, table.id), changes);
  // Every link in one statement (the links were just read under the table lock, so all exist).
  await sqlFor(ctx.tx).run`
    UPDATE trust_link AS l SET value = s.value, points = s.points
    FROM jsonb_to_recordset(${links}::jsonb) AS s("giverId" int, "holderId" int, value int, points int)
    WHERE l.giver_id = s."giverId" AND l.holder_id = s."holderId"`;
  const characters = await trustCharacters(ctx.tx, table.id);
  const names = nameMap(characters);
  const owners = new Map(characters.map((c) => [c.id, c.ownerUserId]));
  for (const c of changes) {
    // Each change is the giver's own: credited to their player, not to whoever closed the round.
    await appendLogAs(ctx.tx, table.id, owners.get(c.giverId) ?? ctx.actor.userId, {
      action: "trust.value",
      characterId: c.giverId,
      summary: {
        key: "log.mw.trust.value",
        params: {
          giver: names.get(c.giverId) ?? "?",
          holder: names.get(c.holderId) ?? "?",
          before: c.before,
          after: c.after,
        },
      },
      before: { value: c.before },
      after: { value: c.after },
    });
  }
  await appendLog(ctx, table.id, {
    action: "trust.reveal",
    summary: { key: "log.mw.trust.revealed", params: { chapter: round.chapter } },
  });
  const state: TrustRoundFlow = { ...flow.state, round };
  await saveFlowState(ctx.tx, trustRoundFlow, flow.id, state, true);
  const lines = changeLines(ctx.publicLang, changes, names);
  const message: MessageView = {
    embeds: [
      {
        title: t(ctx.publicLang, "mw.trust.revealTitle", { chapter: round.chapter }),
        fields: [
          {
            name: t(ctx.publicLang, "mw.trust.changes"),
            value: lines.join("\n") || t(ctx.publicLang, "mw.trust.noChanges"),
          },
          ...(unsubmitted.length > 0
            ? [
                {
                  name: t(ctx.publicLang, "mw.trust.unsubmittedKept"),
                  value: unsubmitted.map((id) => names.get(id) ?? "?").join(", "),
                },
              ]
            : []),
          {
            name: t(ctx.publicLang, "mw.trust.matrix"),
            value: matrixLines(links, names).join("\n") || "—",
          },
        ],
        footer: t(ctx.publicLang, "mw.trust.refilled"),
        tone: "success",
      },
    ],
  };
  return [
    { kind: "post", channelId: table.channelId, view: message },
    panelEdit(flow, roundPanel(ctx.publicLang, flow.id, state, names)),
  ];
}

/**
 * The table a trust action is for: the channel's, or in a DM the one named by the
 * `table` option, or the only table where the player's character adjusts trust.
 */
async function trustTable(ctx: ActionContext<{ type: string; table?: string | number }>): Promise<GameTable> {
  let tableId: number;
  if (ctx.intent.table !== undefined) {
    const id = Number(ctx.intent.table);
    const table = await activeMwTable(ctx.tx, id);
    if (!table) refuse("errors.mw.trustTableUnknown");
    tableId = table.id;
  } else if (ctx.invocation.guildId) {
    // The channel's table, read (and for a mutation locked) with the action's opening.
    const table = ctx.table;
    if (!table) refuse("errors.noTable");
    if (table.system !== "mountain-witch")
      refuse("errors.wrongSystem", { command: "trust", systems: "@system.mountain-witch" });
    return table;
  } else {
    const mine = await activeTablesWithOwnedPlayerCharacter(ctx.tx, ctx.actor.userId, "mountain-witch");
    if (mine.length === 0) refuse("errors.character.noneOwned");
    if (mine.length > 1) refuse("errors.mw.trustWhichTable");
    tableId = mine[0]!;
  }
  return lockTableForAction(ctx, tableId, "mountain-witch");
}

/** An active Mountain Witch table by id (an option typed in a DM), or null. */
async function activeMwTable(tx: ActionContext["tx"], id: number): Promise<GameTable | null> {
  // Typed text: a number no int4 column holds names no table (rather than a PostgreSQL error).
  if (!Number.isInteger(id) || Math.abs(id) > 2_147_483_647) return null;
  return sqlFor(tx).one<GameTable>`
    SELECT * FROM game_table WHERE id = ${id} AND status = 'active' AND system = 'mountain-witch'`;
}

export async function openRound(
  tx: ActionContext["tx"],
  table: GameTable,
): Promise<TypedFlow<TrustRoundFlow> | null> {
  return findOpenFlow(tx, trustRoundFlow, table.id);
}

export const trustDmClosed = gmAction("trust.dm-closed", "public change", async (ctx) => {
  // Recorded by the bot on the GM's behalf, right after the GM opened the round.
  const { table } = ctx;
  const flow = await requireFlow(ctx.tx, trustRoundFlow, table.id, ctx.intent.flowId);
  if (!flow.state.round.giverIds.includes(ctx.intent.characterId)) refuse("errors.mw.notInTrustRound");
  const state: TrustRoundFlow = {
    ...flow.state,
    dmClosed: [...new Set([...flow.state.dmClosed, ctx.intent.characterId])],
  };
  await saveFlowState(ctx.tx, trustRoundFlow, flow.id, state);
  const names = nameMap(await trustCharacters(ctx.tx, table.id));
  return {
    effects: [panelEdit(flow, roundPanel(ctx.publicLang, flow.id, state, names))],
  };
});

/** After a change to the round: the giver's own row (ephemeral or in the DM), and the public panel. */
async function afterRoundChange(
  ctx: ActionContext<{ type: string }>,
  table: GameTable,
  flow: TypedFlow<TrustRoundFlow>,
  state: TrustRoundFlow,
  giver: Character,
): Promise<ActionResult> {
  const names = nameMap(await trustCharacters(ctx.tx, table.id));
  const inDm = !ctx.invocation.guildId;
  // The action may come from a DM: the panel and the reveal are in the table's language all the same.
  const publicLang = await languageOfTable(ctx, table);
  const effects: Effect[] = [];
  if (state.round.phase === "collecting" && allTrustSubmitted(state.round)) {
    effects.push(...(await reveal({ ...ctx, publicLang }, table, { ...flow, state }, false)));
  } else {
    await saveFlowState(ctx.tx, trustRoundFlow, flow.id, state);
    effects.push(panelEdit(flow, roundPanel(publicLang, flow.id, state, names)));
  }
  // Open mode: everyone sees submissions as they happen.
  const open = state.round.mode === "open" && ctx.invocation.guildId !== null;
  const row = rowView(open ? publicLang : ctx.userLang, flow.id, state.round, giver, names, inDm);
  if (open) row.ephemeral = false;
  // A button on the giver's own message (DM or ephemeral) updates it; one on a channel message
  // (the closed-DM note) never does: the answer is a new private message.
  const onPublicMessage = (ctx.intent as { inChannel?: unknown }).inChannel === 1;
  const fromButton = !onPublicMessage && isFromOwnMessage(ctx, flow);
  return fromButton ? { replyMode: "update", reply: row, effects } : { reply: row, effects };
}

export const trustSet = dmAction("trust.set", "private change", async (ctx) => {
  const table = await trustTable(ctx);
  const giver = await ownCharacterAt(ctx, table, ctx.intent.character);
  const target = await findCharacter(ctx.tx, table.id, ctx.intent.target);
  if (target.id === giver.id) refuse("errors.mw.trustSelf");
  if (target.kind !== "pc") refuse("errors.mw.trustOnlyPlayerCharacters");
  const ctxT = { ...ctx, table };
  if (!mwTableState(table).matrixLocked) {
    // Before chapter 1: the zodiac value, +1 at most or lower; secret until chapter 1 in secret mode.
    const { value, secret } = await setStartingTrust(ctxT, table, giver, target, ctx.intent.value);
    return {
      reply: {
        ephemeral: secret,
        embeds: [
          {
            description: t(
              secret ? ctx.userLang : await languageOfTable(ctx, table),
              secret ? "mw.trust.setInitialSecret" : "mw.trust.setInitial",
              {
                giver: giver.name,
                holder: target.name,
                value,
              },
            ),
            tone: "success",
          },
        ],
      },
    };
  }
  const flow = await openRound(ctx.tx, table);
  if (!flow) refuse("errors.mw.noTrustRoundPlayer");
  const round = proposeTrust(flow.state.round, {
    giverId: giver.id,
    holderId: target.id,
    value: ctx.intent.value,
  });
  // The submission itself is secret in secret mode: logged for the giver only.
  await appendLog(ctxT, table.id, {
    action: "trust.propose",
    characterId: giver.id,
    summary: {
      key: "log.mw.trust.propose",
      params: { giver: giver.name, holder: target.name, value: ctx.intent.value },
    },
    visibleTo: round.mode === "secret" ? ctx.actor.userId : null,
  });
  return afterRoundChange(ctx, table, flow, { ...flow.state, round }, giver);
});

export const trustSubmit = dmAction("trust.submit", "private change", async (ctx) => {
  const table =
    ctx.intent.flowId !== undefined ? await tableOfFlow(ctx, ctx.intent.flowId) : await trustTable(ctx);
  const giver = await ownCharacterAt(ctx, table, ctx.intent.character, ctx.intent.characterId);
  const flow =
    ctx.intent.flowId !== undefined
      ? await requireFlow(ctx.tx, trustRoundFlow, table.id, ctx.intent.flowId)
      : await openRound(ctx.tx, table);
  if (!flow) refuse("errors.mw.noTrustRoundPlayer");
  const round = submitTrust(flow.state.round, giver.id);
  await appendLog({ ...ctx }, table.id, {
    action: "trust.submit",
    characterId: giver.id,
    summary: { key: "log.mw.trust.submit", params: { name: giver.name } },
  });
  return afterRoundChange(ctx, table, flow, { ...flow.state, round }, giver);
});

async function tableOfFlow(ctx: ActionContext<{ type: string }>, flowId: number): Promise<GameTable> {
  const flow = await sqlFor(ctx.tx).one<{ kind: string; tableId: number }>`
    SELECT kind, table_id FROM flow WHERE id = ${flowId}`;
  if (flow?.kind !== trustRoundFlow.kind) refuse("errors.flow.notFound");
  const table = await lockTableForAction(ctx, flow.tableId, "mountain-witch");
  if (table.status !== "active") refuse("errors.noTable");
  return table;
}

export const trustEdit = dmAction("trust.edit", "private read", async (ctx) => {
  const sql = sqlFor(ctx.tx);
  const row = await sql.one<Flow>`SELECT * FROM flow WHERE id = ${ctx.intent.flowId}`;
  if (row?.kind !== trustRoundFlow.kind) refuse("errors.flow.notFound");
  const flow = typedFlow(trustRoundFlow, row);
  if (flow.status !== "open") refuse("errors.flow.closed");
  const table = await sql.one<GameTable>`SELECT * FROM game_table WHERE id = ${flow.tableId}`;
  if (!table) throw new Error(`game_table ${flow.tableId} not found`);
  const giver = await ownCharacterAt(ctx, table, undefined, ctx.intent.characterId);
  const state = flow.state;
  const names = nameMap(await trustCharacters(ctx.tx, table.id));
  const own = (trustRoundVisibleTo(state.round, giver.id).own ?? []).slice(0, 5);
  return {
    modal: {
      title: t(ctx.userLang, "mw.trust.modalTitle", { chapter: state.round.chapter }),
      intent: {
        type: "trust.modal",
        flowId: flow.id,
        characterId: giver.id,
        ...(ctx.intent.inChannel ? { inChannel: 1 } : {}),
      },
      inputs: own.map((p) => ({
        field: `v${p.holderId}`,
        label: names.get(p.holderId) ?? `#${p.holderId}`,
        style: "short" as const,
        value: String(p.value),
        required: true,
        maxLength: 2,
      })),
    },
  };
});

/** The trust form's answer: its `v<holderId>` values come besides the catalogue's fields (each checked below). */
const trustFormAnswer = mwIntents["trust.modal"].catchall(z.unknown());

export const trustModal = dmAction(
  "trust.modal",
  "private change",
  async (ctx) => {
    const table = await tableOfFlow(ctx, ctx.intent.flowId);
    const giver = await ownCharacterAt(ctx, table, undefined, ctx.intent.characterId);
    const flow = await requireFlow(ctx.tx, trustRoundFlow, table.id, ctx.intent.flowId);
    let round = flow.state.round;
    const names = nameMap(await trustCharacters(ctx.tx, table.id));
    // Field by field: a bad value is reported by name and the valid ones are kept.
    const problems: string[] = [];
    for (const [field, raw] of Object.entries(ctx.intent)) {
      const m = /^v(\d+)$/.exec(field);
      if (!m) continue;
      const holderId = Number(m[1]);
      const text = String(raw).trim();
      const holder = names.get(holderId) ?? `#${holderId}`;
      try {
        const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
        if (!Number.isInteger(value)) refuse("errors.mw.trustNotInteger");
        round = proposeTrust(round, { giverId: giver.id, holderId, value });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        problems.push(
          t(ctx.userLang, "mw.trust.fieldProblem", {
            name: holder,
            value: text.slice(0, 10) || "—",
            problem: t(ctx.userLang, error.code, error.params as Record<string, string | number>),
          }),
        );
      }
    }
    await appendLog(ctx, table.id, {
      action: "trust.propose",
      characterId: giver.id,
      summary: { key: "log.mw.trust.proposeMany", params: { giver: giver.name } },
      after: round.proposals.filter((p) => p.giverId === giver.id),
      visibleTo: round.mode === "secret" ? ctx.actor.userId : null,
    });
    const answer = await afterRoundChange(ctx, table, flow, { ...flow.state, round }, giver);
    if (problems.length > 0 && answer.reply) {
      answer.reply = {
        ...answer.reply,
        embeds: [
          ...(answer.reply.embeds ?? []),
          {
            title: t(ctx.userLang, "mw.trust.fieldProblemsTitle"),
            description: problems.join("\n"),
            tone: "warning",
          },
        ],
      };
    }
    return answer;
  },
  trustFormAnswer,
);

export const trustReveal = gmAction("trust.reveal", "public change", async (ctx) => {
  const { table } = ctx;
  const flow =
    ctx.intent.flowId !== undefined
      ? await requireFlow(ctx.tx, trustRoundFlow, table.id, ctx.intent.flowId)
      : await openRound(ctx.tx, table);
  if (!flow) refuse("errors.mw.noTrustRound");
  const effects = await reveal(ctx, table, flow, true);
  return {
    reply: { embeds: [{ description: t(ctx.publicLang, "mw.trust.revealedByGm"), tone: "info" }] },
    effects,
  };
});

export const trustShow = dmAction("trust.show", "private read", async (ctx) => {
  const table = await (async () => {
    const id = ctx.intent.table !== undefined ? Number(ctx.intent.table) : null;
    if (id !== null) {
      const found = await activeMwTable(ctx.tx, id);
      if (!found) refuse("errors.mw.trustTableUnknown");
      return found;
    }
    if (ctx.invocation.guildId) {
      const found = ctx.table;
      if (!found) refuse("errors.noTable");
      if (found.system !== "mountain-witch")
        refuse("errors.wrongSystem", { command: "trust", systems: "@system.mountain-witch" });
      return found;
    }
    refuse("errors.mw.trustWhichTable");
  })();
  const me = await ownCharacterAt(ctx, table, ctx.intent.character);
  const links = await trustLinks(ctx.tx, table.id);
  const names = nameMap(await trustCharacters(ctx.tx, table.id));
  // Before chapter 1 the giver sees their own unrevealed starting edits.
  const give = links
    .filter((l) => l.giverId === me.id)
    .map((l) => {
      const own = ownStartingValue(table, me.id, l.holderId, l.value);
      const pending = own !== l.value ? ` → **${own}** ${t(ctx.userLang, "mw.trust.untilChapterOne")}` : "";
      return `• ${names.get(l.holderId) ?? "?"}: **${l.value}**${pending}`;
    });
  const hold = links
    .filter((l) => l.holderId === me.id)
    .map(
      (l) =>
        `• ${t(ctx.userLang, "mw.trust.holdLine", { giver: names.get(l.giverId) ?? "?", points: l.points, value: l.value })}`,
    );
  return {
    reply: {
      ephemeral: true,
      embeds: [
        {
          title: t(ctx.userLang, "mw.trust.showTitle", { name: me.name }),
          fields: [
            { name: t(ctx.userLang, "mw.trust.give"), value: give.join("\n") || "—" },
            { name: t(ctx.userLang, "mw.trust.hold"), value: hold.join("\n") || "—" },
          ],
          tone: "secret",
        },
      ],
    },
  };
});

export const trustMatrix = mwAction("trust.matrix", "public read", async (ctx) => {
  const { table } = ctx;
  const links = await trustLinks(ctx.tx, table.id);
  const names = nameMap(await trustCharacters(ctx.tx, table.id));
  return {
    reply: {
      embeds: [
        {
          title: t(ctx.publicLang, "mw.trust.matrixTitle", { chapter: table.chapter }),
          description: matrixLines(links, names).join("\n") || t(ctx.publicLang, "mw.trust.empty"),
          footer: t(
            ctx.publicLang,
            !mwTableState(table).matrixLocked && table.trustMode !== "open"
              ? "mw.trust.matrixFooterStarting"
              : "mw.trust.matrixFooter",
          ),
        },
      ],
    },
  };
});

export const trustUseCases = [
  trustDmClosed,
  trustSet,
  trustSubmit,
  trustEdit,
  trustModal,
  trustReveal,
  trustShow,
  trustMatrix,
];
