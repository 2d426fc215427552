import { familyKey, type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { tableCharacters } from "../../store/characters.js";
import { activeTable, archiveTable, createTable, setTableGm, setTableLanguage } from "../../store/tables.js";
import { requireGuild, requireTable } from "../access.js";
import { hooksFor } from "../hooks.js";
import { appendLog, type LogSummary } from "../log.js";
import type { ActionContext } from "../use-case.js";
import type { EmbedView } from "../views.js";
import { confirmation, confirmed, notice } from "./answers.js";
import { logFile, parseLogBound, readableLog } from "./log-export.js";
import { channelUseCase, tableUseCase } from "./use-cases.js";

export const systemName = (lang: Lang, system: string) => t(lang, familyKey("system.", system));

export const tableSetup = channelUseCase("table.setup", { mutates: true, ephemeral: false }, async (ctx) => {
  const { system, trust } = ctx.intent;
  const guildId = requireGuild(ctx);
  if (ctx.table) refuse("errors.table.alreadySetUp", { system: `@system.${ctx.table.system}` });
  if (trust && system !== "mountain-witch") refuse("errors.table.trustModeMountainWitchOnly");
  const existing = await activeTable(ctx.tx, ctx.invocation.channelId);
  if (existing) refuse("errors.table.alreadySetUp", { system: `@system.${existing.system}` });
  const table = await createTable(ctx.tx, {
    guildId,
    channelId: ctx.invocation.channelId,
    system,
    gmUserId: ctx.actor.userId,
    // The table speaks its GM's language until the GM says otherwise (/table language).
    language: ctx.userLang,
    trustMode: trust ?? "secret",
  });
  await appendLog(ctx, table.id, {
    action: "table.setup",
    summary: { key: "log.table.setup", params: { system } },
    after: { system, gm: ctx.actor.userId, trustMode: table.trustMode, language: table.language },
  });
  const lang = ctx.userLang;
  return {
    reply: {
      embeds: [
        {
          title: t(lang, "table.setup.title", { system: systemName(lang, system) }),
          description: t(lang, `table.setup.next.${system}`, { gm: `<@${ctx.actor.userId}>` }),
          tone: "success",
        },
      ],
    },
    // This game's commands appear in the guild (if it is the guild's first table of it).
    effects: [{ kind: "guildCommands", guildId: table.guildId }],
  };
});

export async function tableSummary(
  ctx: Pick<ActionContext, "tx" | "publicLang" | "table">,
): Promise<EmbedView> {
  const table = requireTable(ctx);
  const characters = await tableCharacters(ctx.tx, table.id);
  const pcs = characters.filter((c) => c.kind === "pc");
  const npcs = characters.filter((c) => c.kind !== "pc");
  const extra = (await hooksFor(table.system).tableFields?.(ctx)) ?? [];
  return {
    title: t(ctx.publicLang, "table.show.title", { system: systemName(ctx.publicLang, table.system) }),
    fields: [
      { name: t(ctx.publicLang, "table.show.gm"), value: `<@${table.gmUserId}>`, inline: true },
      {
        name: t(ctx.publicLang, "table.show.language"),
        value: t(ctx.publicLang, `table.language.${ctx.publicLang}`),
        inline: true,
      },
      ...(table.system === "mountain-witch"
        ? [
            { name: t(ctx.publicLang, "table.show.chapter"), value: String(table.chapter), inline: true },
            {
              name: t(ctx.publicLang, "table.show.trustMode"),
              value: t(ctx.publicLang, familyKey("table.trust.", table.trustMode)),
              inline: true,
            },
          ]
        : []),
      {
        name: t(ctx.publicLang, "table.show.players", { count: pcs.length }),
        value:
          pcs.map((c) => `• **${c.name}** — ${c.ownerUserId ? `<@${c.ownerUserId}>` : "GM"}`).join("\n") ||
          "—",
      },
      ...(npcs.length > 0
        ? [
            {
              name: t(ctx.publicLang, "table.show.npcs", { count: npcs.length }),
              value: npcs.map((c) => `• ${c.name}`).join("\n"),
            },
          ]
        : []),
      ...extra,
    ],
  };
}

export const tableShow = tableUseCase("table.show", { mutates: false, ephemeral: false }, async (ctx) => {
  return { reply: { embeds: [await tableSummary(ctx)] } };
});

export const tableGm = tableUseCase(
  "table.gm",
  { access: "gm-or-admin", mutates: true, ephemeral: false },
  async (ctx, table) => {
    if (ctx.intent.user === table.gmUserId) refuse("errors.table.alreadyGm");
    await setTableGm(ctx.tx, table.id, ctx.intent.user);
    await appendLog(ctx, table.id, {
      action: "table.gm",
      summary: { key: "log.table.gm", params: { from: table.gmUserId, to: ctx.intent.user } },
      before: { gm: table.gmUserId },
      after: { gm: ctx.intent.user },
    });
    const done = t(ctx.publicLang, "table.gm.done", {
      from: `<@${table.gmUserId}>`,
      to: `<@${ctx.intent.user}>`,
    });
    return { reply: notice(done, "success") };
  },
);

export const tableLanguage = tableUseCase(
  "table.language",
  { access: "gm-or-admin", mutates: true, ephemeral: false },
  async (ctx, table) => {
    await setTableLanguage(ctx.tx, table.id, ctx.intent.lang);
    await appendLog(ctx, table.id, {
      action: "table.language",
      summary: { key: "log.table.language", params: { lang: `@table.language.${ctx.intent.lang}` } },
      before: { language: table.language },
      after: { language: ctx.intent.lang },
    });
    // Said publicly, in the language just chosen: from now on the table sees everything in it.
    const lang = ctx.intent.lang;
    return {
      reply: notice(t(lang, "table.language.done", { lang: t(lang, `table.language.${lang}`) }), "success"),
    };
  },
);

export const tableLog = tableUseCase("table.log", { mutates: false, ephemeral: true }, async (ctx, table) => {
  const range = {
    from: parseLogBound(ctx.intent.from, false),
    to: parseLogBound(ctx.intent.to, true),
  };
  if (range.from && range.to && range.from >= range.to) refuse("errors.log.emptyRange");
  if (ctx.intent.format) {
    // The whole log (or the range) as a file: only this user's copy holds their secrets.
    const { file, count } = await logFile(ctx, table, ctx.intent.format, range);
    const said = t(ctx.userLang, "table.log.file", { count, format: ctx.intent.format });
    return { reply: { ...notice(said, "info", { ephemeral: true }), files: [file] } };
  }
  const entries = await readableLog(ctx, table, range, { newest: ctx.intent.limit ?? 15 });
  const lines = entries.map((e) => {
    const when = `<t:${Math.floor(e.at.getTime() / 1000)}:t>`;
    const summary = e.summary as unknown as LogSummary;
    const reason = e.reason ? ` — _${e.reason}_` : "";
    return `${when} <@${e.actorUserId}> ${t(ctx.userLang, summary.key, summary.params)}${reason}`;
  });
  // Keep within one embed description; the oldest lines go first.
  let text = lines.join("\n");
  while (text.length > 4000 && lines.length > 1) {
    lines.shift();
    text = lines.join("\n");
  }
  return {
    reply: {
      ephemeral: true,
      embeds: [
        {
          title: t(ctx.userLang, "table.log.title", { count: lines.length }),
          description: text || t(ctx.userLang, "table.log.empty"),
        },
      ],
    },
  };
});

export const tableArchive = tableUseCase(
  "table.archive",
  { access: "gm-or-admin", mutates: false, ephemeral: true },
  async (ctx, table) => {
    const question = t(ctx.userLang, "table.archive.confirm", {
      system: systemName(ctx.userLang, table.system),
    });
    return {
      reply: confirmation(question, {
        label: t(ctx.userLang, "table.archive.button"),
        intent: { type: "table.archive-confirm", tableId: table.id },
      }),
    };
  },
);

export const tableArchiveConfirm = tableUseCase(
  "table.archive-confirm",
  { access: "gm-or-admin", mutates: true, ephemeral: false },
  async (ctx, table) => {
    if (table.id !== ctx.intent.tableId) refuse("errors.staleAction");
    await archiveTable(ctx.tx, table.id, ctx.now);
    await appendLog(ctx, table.id, { action: "table.archive", summary: { key: "log.table.archive" } });
    const announce = t(ctx.publicLang, "table.archive.announce", { user: `<@${ctx.actor.userId}>` });
    return confirmed(
      t(ctx.userLang, "table.archive.done"),
      { channelId: table.channelId, embed: { description: announce, tone: "info" } },
      // The last table of a game closed: its commands leave the guild.
      { kind: "guildCommands", guildId: table.guildId },
    );
  },
);
