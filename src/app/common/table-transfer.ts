import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { sqlFor } from "../../store/db.js";
import { archiveTable } from "../../store/tables.js";
import { requireGmOrAdmin, requireGuild } from "../access.js";
import { createFlow, findOpenFlow } from "../flows.js";
import { appendLog } from "../log.js";
import type { ActionContext } from "../use-case.js";
import { confirmation, confirmed, notice } from "./answers.js";
import { pendingImportFlow } from "./flow-states.js";
import type { UploadedFile } from "./intents.js";
import { systemName } from "./table.js";
import { exportTable, readBackup, restoreTable, type ValidBackup } from "./table-backup.js";
import { channelUseCase, tableUseCase } from "./use-cases.js";

const counts = (backup: ValidBackup) => ({
  characters: backup.characters.filter((c) => c.deleted_at == null).length,
  entries: backup.log.length + backup.secrets.log.length,
  flows: backup.flows.length,
});

/** `/table export` (GM): the whole table as a versioned JSON file, its secrets sealed. */
export const tableExport = tableUseCase(
  "table.export",
  { access: "gm-or-admin", mutates: false, ephemeral: true },
  async (ctx, table) => {
    const text = await exportTable(ctx.tx, table, ctx.now);
    const backup = await readBackup(ctx.tx, text);
    return {
      reply: {
        ...notice(t(ctx.userLang, "table.export.done", counts(backup)), "info", { ephemeral: true }),
        files: [
          {
            name: `table-${table.system}-${ctx.now.toISOString().slice(0, 10)}.json`,
            data: new TextEncoder().encode(text),
          },
        ],
      },
    };
  },
);

function readableFile(file: UploadedFile): string {
  if (file.text === null) refuse("errors.backup.unreadable", { name: file.name.slice(0, 100) });
  return file.text;
}

const tableLang = (backup: ValidBackup, fallback: Lang): Lang =>
  backup.table.language === "en" || backup.table.language === "ru" ? backup.table.language : fallback;

async function restoreHere(ctx: ActionContext, backup: ValidBackup) {
  await restoreTable(ctx.tx, backup, {
    guildId: requireGuild(ctx),
    channelId: ctx.invocation.channelId,
    gmUserId: ctx.actor.userId,
  });
  const lang = tableLang(backup, ctx.userLang);
  return {
    lang,
    embed: {
      description: t(lang, "table.import.done", {
        user: `<@${ctx.actor.userId}>`,
        system: systemName(lang, backup.table.system),
        ...counts(backup),
      }),
      tone: "success" as const,
    },
  };
}

/**
 * `/table import file [replace]`: restores a backup into an empty channel (the importer is its
 * GM), or with replace:true, after a confirmation button, in place of this channel's table.
 * A bad or edited file is refused with its first problem named; nothing changes.
 */
export const tableImport = channelUseCase(
  "table.import",
  { mutates: true, ephemeral: (intent) => intent.replace === true },
  async (ctx) => {
    const guildId = requireGuild(ctx);
    const text = readableFile(ctx.intent.file);
    const backup = await readBackup(ctx.tx, text);
    if (ctx.table) {
      if (!ctx.intent.replace) refuse("errors.backup.notEmpty", { system: `@system.${ctx.table.system}` });
      const table = requireGmOrAdmin(ctx);
      // The file waits in the database for the confirmation (a button holds only its id); an
      // earlier one still waiting is dropped, so only the last file asked about can be confirmed.
      await sqlFor(ctx.tx).run`
        UPDATE flow SET status = 'closed', closed_at = ${ctx.now}
        WHERE table_id = ${table.id} AND kind = ${pendingImportFlow.kind} AND status = 'open'`;
      const pending = await createFlow(ctx.tx, pendingImportFlow, {
        tableId: table.id,
        state: { name: ctx.intent.file.name, text },
        createdByUserId: ctx.actor.userId,
      });
      const question = t(ctx.userLang, "table.import.confirm", {
        system: systemName(ctx.userLang, table.system),
        name: ctx.intent.file.name.slice(0, 100),
        ...counts(backup),
      });
      return {
        reply: confirmation(question, {
          label: t(ctx.userLang, "table.import.button"),
          intent: { type: "table.import-confirm", flowId: pending.id },
        }),
      };
    }
    const { embed } = await restoreHere(ctx, backup);
    return {
      reply: { embeds: [embed] },
      effects: [{ kind: "guildCommands", guildId }],
    };
  },
);

export const tableImportConfirm = tableUseCase(
  "table.import-confirm",
  { access: "gm-or-admin", mutates: true, ephemeral: false },
  async (ctx, table) => {
    // Only the last file asked about is open (asking again closes the earlier one).
    const pending = await findOpenFlow(ctx.tx, pendingImportFlow, table.id);
    if (pending?.id !== ctx.intent.flowId) refuse("errors.staleAction");
    const backup = await readBackup(ctx.tx, pending.state.text);
    // This table is archived, its books kept, as /table archive does; the backup takes the channel.
    await archiveTable(ctx.tx, table.id, ctx.now);
    await appendLog(ctx, table.id, { action: "table.replace", summary: { key: "log.table.replaced" } });
    const { embed } = await restoreHere(ctx, backup);
    return confirmed(
      t(ctx.userLang, "table.import.replaced"),
      { channelId: table.channelId, embed },
      { kind: "guildCommands", guildId: table.guildId },
    );
  },
);
