import { type Lang, t } from "../../i18n/index.js";
import { type DiceStatistics, diceStatistics, type FaceCount } from "../../rules/dice-stats.js";
import { sqlFor } from "../../store/db.js";
import type { EmbedView, MessageView } from "../views.js";
import type { StatsPeriod } from "./intents.js";
import { tableUseCase } from "./use-cases.js";

/**
 * The chart's renderer, loaded when first needed: it draws on a native canvas whose binary ships
 * in an optional npm package, so a host installed without optional packages still runs the bot
 * and answers `/table stats` with the embed alone (saying why).
 */
let chartRenderer: Promise<typeof import("./stats-chart.js") | null> | null = null;
const loadChartRenderer = () => {
  chartRenderer ??= import("./stats-chart.js").catch(() => null);
  return chartRenderer;
};

/** How long each `/table stats` period is, back from now (null: everything). */
const PERIOD_MS: Record<StatsPeriod, number | null> = {
  day: 24 * 3600_000,
  week: 7 * 24 * 3600_000,
  month: 30 * 24 * 3600_000,
  all: null,
};

export const STATS_CHART_FILE = "dice-stats.png";

const num = (lang: Lang, value: number) =>
  new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

const pValueText = (lang: Lang, p: number) =>
  p < 0.001 ? "< 0.001" : `= ${new Intl.NumberFormat(lang, { maximumFractionDigits: 3 }).format(p)}`;

/** Lines of at most `max` characters in all (an embed field), the rest counted as "…and N more". */
function clipLines(lang: Lang, lines: string[], max = 1000): string {
  const kept: string[] = [];
  let length = 0;
  for (const [i, line] of lines.entries()) {
    if (length + line.length + 1 > max - 40) {
      kept.push(t(lang, "stats.more", { count: lines.length - i }));
      break;
    }
    kept.push(line);
    length += line.length + 1;
  }
  return kept.join("\n");
}

export function statsEmbed(
  lang: Lang,
  stats: DiceStatistics,
  scope: { userId?: string; period: StatsPeriod },
): EmbedView {
  const period = t(lang, `stats.period.${scope.period}`);
  const title = scope.userId ? t(lang, "stats.titleUser", { period }) : t(lang, "stats.title", { period });
  if (stats.total === 0) {
    return { title, description: t(lang, "stats.empty"), tone: "info" };
  }
  const players = new Set(stats.byPlayer.map((p) => p.userId)).size;
  const sizeFields = stats.bySize.slice(0, 20).map((s) => ({
    name: t(lang, "stats.size.name", { sides: s.sides, count: s.count }),
    value: [
      t(lang, "stats.size.mean", { mean: num(lang, s.mean), expected: num(lang, s.expectedMean) }),
      s.verdict === "tooFew"
        ? t(lang, "stats.verdict.tooFew", { needed: s.needed, sides: s.sides })
        : t(lang, `stats.verdict.${s.verdict}`, { p: pValueText(lang, s.pValue ?? 1) }),
    ].join("\n"),
    inline: true,
  }));
  const byUser = new Map<string, string[]>();
  for (const p of stats.byPlayer) {
    const parts = byUser.get(p.userId) ?? [];
    parts.push(
      t(lang, "stats.player.size", {
        sides: p.sides,
        count: p.count,
        mean: num(lang, p.mean),
        expected: num(lang, p.expectedMean),
      }),
    );
    byUser.set(p.userId, parts);
  }
  const playerLines = [...byUser.entries()].map(([userId, parts]) => `<@${userId}>: ${parts.join(" · ")}`);
  return {
    title,
    description: scope.userId
      ? t(lang, "stats.summaryUser", { count: stats.total, user: `<@${scope.userId}>` })
      : t(lang, "stats.summary", { count: stats.total, players }),
    fields: [...sizeFields, { name: t(lang, "stats.players"), value: clipLines(lang, playerLines) }],
    footer: t(lang, "stats.footer"),
    image: STATS_CHART_FILE,
    tone: stats.bySize.some((s) => s.verdict === "off") ? "warning" : "neutral",
  };
}

/**
 * `/table stats [user] [period] [public]`: every die rolled at the table (game checks included)
 * by die size and player against a fair die, with a chi-square verdict and a chart. A secret
 * roll's dice count only in its roller's own private answer, never in a public one.
 */
export const tableStats = tableUseCase(
  "table.stats",
  { mutates: false, ephemeral: (intent) => intent.public !== true },
  async (ctx, table) => {
    const isPublic = ctx.intent.public === true;
    const period = ctx.intent.period ?? "all";
    const span = PERIOD_MS[period];
    const since = span === null ? new Date(0) : new Date(ctx.now.getTime() - span);
    const viewer = isPublic ? null : ctx.actor.userId;
    const rows = await sqlFor(ctx.tx).rows<FaceCount>`
      SELECT d.user_id AS "userId", u.s AS sides, u.f AS face, count(*)::int AS count
      FROM dice_rolled d, unnest(d.sides, d.faces) AS u(s, f)
      WHERE d.table_id = ${table.id} AND d.at >= ${since}
        AND (d.visible_to IS NULL OR d.visible_to = ${viewer})
        AND (${ctx.intent.user ?? null}::text IS NULL OR d.user_id = ${ctx.intent.user ?? null})
      GROUP BY d.user_id, u.s, u.f`;
    const stats = diceStatistics(rows);
    const lang = isPublic ? ctx.publicLang : ctx.userLang;
    const embed = statsEmbed(lang, stats, { userId: ctx.intent.user, period });
    const reply: MessageView = { ephemeral: !isPublic, embeds: [embed] };
    const chart = stats.total > 0 ? await loadChartRenderer() : null;
    if (stats.total > 0 && !chart) {
      embed.image = undefined;
      embed.footer = `${embed.footer ?? ""}\n${t(lang, "stats.noChart")}`;
    }
    if (chart) {
      const { renderDiceChart } = chart;
      reply.files = [
        {
          name: STATS_CHART_FILE,
          data: renderDiceChart(stats.bySize, {
            observed: t(lang, "stats.chart.observed"),
            expected: t(lang, "stats.chart.expected"),
            title: (s) => t(lang, "stats.size.name", { sides: s.sides, count: s.count }),
          }),
        },
      ];
    }
    return { reply };
  },
);
