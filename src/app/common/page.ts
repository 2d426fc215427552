/**
 * `/table page [public] [revoke]`: a link to the table's campaign page (src/web/), answered only
 * to whoever asked. A member's link shows what they may see in Discord, in their own language; the
 * GM's `public:true` link is a spectator's (public information only); `revoke:true` ends every
 * link of the table at once and hands the GM a new one.
 */
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { pageLink, revokePageLinks } from "../../web/links.js";
import { isGm } from "../access.js";
import { appendLog } from "../log.js";
import { tableUseCase } from "./use-cases.js";

export const tablePage = tableUseCase(
  "table.page",
  { mutates: true, ephemeral: true },
  async (ctx, table) => {
    const gm = isGm(table, ctx.actor);
    if (ctx.intent.revoke && !gm) refuse("errors.page.revokeGmOnly");
    if (ctx.intent.public && !gm) refuse("errors.page.publicGmOnly");
    const lang = ctx.userLang;
    const lines: string[] = [];
    if (ctx.intent.revoke) {
      await revokePageLinks(ctx.tx, table.id, ctx.now);
      await appendLog(ctx, table.id, { action: "page.revoke", summary: { key: "log.page.revoke" } });
      lines.push(t(lang, "page.revoked"));
    }
    const kind = ctx.intent.public ? "spectator" : "member";
    const link = await pageLink(ctx.tx, table, { userId: ctx.actor.userId, kind, lang }, ctx.now);
    const until = `<t:${Math.floor(link.expiresAt.getTime() / 1000)}:f>`;
    lines.push(
      t(lang, kind === "spectator" ? "page.link.spectator" : gm ? "page.link.gm" : "page.link.member", {
        until,
      }),
      "",
      link.url,
    );
    return {
      reply: {
        ephemeral: true,
        embeds: [{ title: t(lang, "page.link.title"), description: lines.join("\n"), tone: "info" }],
      },
    };
  },
);
