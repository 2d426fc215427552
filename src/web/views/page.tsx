/**
 * The campaign page, rendered to HTML on the server (it reads complete without JavaScript; the
 * script only keeps it live). Every text is a preact text node or attribute, escaped by preact.
 */
import type { ComponentChildren } from "preact";
import { render } from "preact-render-to-string";
import { sessionRecap, sessionsOf } from "../../app/common/session.js";
import type { EmbedView } from "../../app/views.js";
import { familyKey, LANGS, type Lang, t } from "../../i18n/index.js";
import type { JournalEntry, JournalFilter, PageData } from "../page-data.js";
import { DiceChart, LedgerChart, TrustMatrix } from "./charts.js";
import { Inline, Markdown, type TextContext, Time } from "./markdown.js";

/** The page's own assets, served by this server (no third-party request). */
export const ASSETS = { css: "/assets/page.css", js: "/assets/page.js" } as const;

function Document({
  lang,
  title,
  children,
  live,
}: {
  lang: Lang;
  title: string;
  children: ComponentChildren;
  live?: string;
}) {
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{title}</title>
        <link rel="stylesheet" href={ASSETS.css} />
        {live ? <script src={ASSETS.js} defer /> : null}
      </head>
      <body data-live={live}>{children}</body>
    </html>
  );
}

const html = (node: preact.VNode) => `<!doctype html>${render(node)}`;

/** The refusal: a plain page in the viewer's language, nothing of any table. */
export function forbiddenPage(lang: Lang): string {
  return html(
    <Document lang={lang} title={t(lang, "web.forbidden.title")}>
      <main class="plain">
        <h1>{t(lang, "web.forbidden.title")}</h1>
        <p>{t(lang, "web.forbidden.body")}</p>
      </main>
    </Document>,
  );
}

export function notFoundPage(lang: Lang): string {
  return html(
    <Document lang={lang} title="404">
      <main class="plain">
        <p>{t(lang, "web.notFound")}</p>
      </main>
    </Document>,
  );
}

function Embed({ embed, ctx }: { embed: EmbedView; ctx: TextContext }) {
  return (
    <div class={`embed tone-${embed.tone ?? "neutral"}`}>
      {embed.title ? (
        <h3>
          <Inline text={embed.title} ctx={ctx} />
        </h3>
      ) : null}
      {embed.description ? <Markdown text={embed.description} ctx={ctx} /> : null}
      {embed.fields?.length ? <Fields fields={embed.fields} ctx={ctx} /> : null}
      {embed.footer ? (
        <p class="footer">
          <Inline text={embed.footer} ctx={ctx} />
        </p>
      ) : null}
    </div>
  );
}

function Fields({
  fields,
  ctx,
}: {
  fields: { name: string; value: string; inline?: boolean }[];
  ctx: TextContext;
}) {
  return (
    <dl class="fields">
      {fields.map((f) => (
        <div class={f.inline ? "field inline" : "field"}>
          <dt>
            <Inline text={f.name} ctx={ctx} />
          </dt>
          <dd>
            <Markdown text={f.value} ctx={ctx} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export interface PageUrls {
  /** The page's own path (with the token): links and the filter form go there. */
  self: string;
  /** The same page in another language. */
  inLang: (lang: Lang) => string;
  /** The live stream's path. */
  live: string;
}

/** The `<main>` of the page: what the live stream sends again after each change. */
export function PageBody({ data, urls, filter }: { data: PageData; urls: PageUrls; filter: JournalFilter }) {
  const { table, viewer } = data;
  const lang = viewer.lang;
  const ctx: TextContext = { lang, person: (id) => data.people.get(id) ?? t(lang, "web.someone") };
  const system = t(lang, familyKey("system.", table.system));
  const players = data.sheets.filter((s) => s.kind === "pc");
  return (
    <main id="page" data-table={table.id} data-viewer={viewer.role}>
      <header class="top">
        <div class="title">
          <h1>{system}</h1>
          <p class="meta">
            {table.system === "mountain-witch" ? (
              <span>{t(lang, "web.header.chapter", { chapter: table.chapter })}</span>
            ) : null}
            {data.fateWeek !== null ? (
              <span>{t(lang, "web.header.week", { week: data.fateWeek })}</span>
            ) : null}
            <span>
              {t(lang, "web.header.language")}: {t(lang, familyKey("table.language.", table.language))}
            </span>
            <span>
              <a href={`https://discord.com/channels/${table.guildId}/${table.channelId}`} rel="noreferrer">
                {t(lang, "web.header.discord")}
              </a>
            </span>
          </p>
        </div>
        <nav class="langs" aria-label={t(lang, "web.lang")}>
          {LANGS.map((l) =>
            l === lang ? (
              <strong>{l.toUpperCase()}</strong>
            ) : (
              <a href={urls.inLang(l)} hreflang={l}>
                {l.toUpperCase()}
              </a>
            ),
          )}
          <span
            class="live"
            id="live-state"
            hidden
            data-on={t(lang, "web.live.on")}
            data-off={t(lang, "web.live.off")}
          >
            {t(lang, "web.live.on")}
          </span>
        </nav>
      </header>
      <p class="viewer">{t(lang, `web.viewer.${viewer.role}`)}</p>
      <section class="people">
        <p>
          <strong>{t(lang, "web.header.players")}:</strong> {players.map((p) => p.name).join(", ") || "—"}
        </p>
        {data.tableFields.length ? <Fields fields={data.tableFields} ctx={ctx} /> : null}
      </section>
      <nav class="sections">
        <a href="#sheets">{t(lang, "web.nav.sheets")}</a>
        {data.trust ? <a href="#trust">{t(lang, "web.nav.trust")}</a> : null}
        {data.ledger ? <a href="#reserve">{t(lang, "web.nav.reserve")}</a> : null}
        {data.board ? <a href="#aspects">{t(lang, "web.nav.aspects")}</a> : null}
        <a href="#journal">{t(lang, "web.nav.journal")}</a>
        <a href="#dice">{t(lang, "web.nav.stats")}</a>
      </nav>
      {data.panels.length ? (
        <section id="now">
          <h2>{t(lang, "web.panels")}</h2>
          {data.panels.map((p) => (
            <Embed embed={p} ctx={ctx} />
          ))}
        </section>
      ) : null}
      {data.trust ? <TrustSection data={data} ctx={ctx} /> : null}
      {data.ledger ? <ReserveSection data={data} ctx={ctx} /> : null}
      {data.board ? <AspectSection data={data} ctx={ctx} /> : null}
      <section id="sheets">
        <h2>{t(lang, "web.nav.sheets")}</h2>
        <div class="cards">
          {data.sheets.map((s) => (
            <article class={s.own ? "card sheet own" : "card sheet"} data-character={s.name}>
              <h3>{s.name}</h3>
              <p class="meta">
                {t(lang, s.kind === "pc" ? "web.sheet.pc" : "web.sheet.npc")}
                {s.ownerUserId && s.kind === "pc"
                  ? ` · ${t(lang, "web.sheet.player", { name: ctx.person(s.ownerUserId) })}`
                  : ""}
                {s.status !== "active" ? ` · ${t(lang, familyKey("character.status.", s.status))}` : ""}
              </p>
              <Fields fields={s.fields} ctx={ctx} />
              {s.secretFate ? (
                <div class="secret" data-secret="fate">
                  <p>
                    <strong>{t(lang, "web.fate.own")}</strong>
                  </p>
                  <p>
                    <strong>{s.secretFate.name}</strong> — {s.secretFate.description}
                  </p>
                </div>
              ) : null}
            </article>
          ))}
        </div>
      </section>
      <Journal data={data} ctx={ctx} urls={urls} filter={filter} />
      <section id="dice">
        <h2>{t(lang, "web.stats.title")}</h2>
        <Embed embed={data.statsEmbed} ctx={ctx} />
        <DiceChart
          sizes={data.stats.bySize}
          labels={{
            title: (s) => t(lang, "stats.size.name", { sides: s.sides, count: s.count }),
            chart: t(lang, "web.stats.title"),
          }}
        />
      </section>
      <footer class="foot">
        {t(lang, "web.updated")}: <Time at={new Date()} lang={lang} />
      </footer>
    </main>
  );
}

function TrustSection({ data, ctx }: { data: PageData; ctx: TextContext }) {
  const trust = data.trust!;
  const lang = ctx.lang;
  return (
    <section id="trust">
      <h2>{t(lang, "web.trust.title")}</h2>
      {trust.characters.length < 2 ? (
        <p>{t(lang, "web.trust.none")}</p>
      ) : (
        <>
          <div class="scroll">
            <TrustMatrix
              picture={trust}
              labels={{
                giver: t(lang, "web.trust.giver"),
                holder: t(lang, "web.trust.holder"),
                change: (before, after) => t(lang, "web.trust.change", { before, after }),
              }}
            />
          </div>
          <p class="legend">{t(lang, "web.trust.legend")}</p>
        </>
      )}
      {trust.round ? (
        <p>
          {t(lang, "web.trust.round", {
            chapter: trust.round.chapter,
            submitted: trust.round.submitted.join(", ") || "—",
            pending: trust.round.pending.join(", ") || "—",
          })}
        </p>
      ) : null}
      {trust.round && trust.round.own.length > 0 ? (
        <div class="secret" data-secret="trust">
          <p>
            <strong>{t(lang, "web.trust.own")}</strong>
          </p>
          <ul>
            {trust.round.own.map((o) => (
              <li>
                {o.holder}: <strong>{o.value}</strong>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function ReserveSection({ data, ctx }: { data: PageData; ctx: TextContext }) {
  const ledger = data.ledger!;
  const lang = ctx.lang;
  return (
    <section id="reserve">
      <h2>{t(lang, "web.reserve.title")}</h2>
      {ledger.pool ? (
        <p class="big" data-reserve-left={ledger.pool.left}>
          {t(lang, "web.reserve.summary", ledger.pool)}
        </p>
      ) : (
        <p>{t(lang, "web.reserve.none")}</p>
      )}
      <LedgerChart
        rows={ledger.rows}
        labels={{ left: t(lang, "web.reserve.left"), ceiling: t(lang, "web.reserve.ceiling") }}
      />
      {ledger.rows.length ? (
        <div class="scroll">
          <table class="ledger">
            <thead>
              <tr>
                <th>{t(lang, "web.reserve.when")}</th>
                <th>{t(lang, "web.reserve.who")}</th>
                <th>{t(lang, "web.reserve.what")}</th>
                <th>{t(lang, "web.reserve.change")}</th>
              </tr>
            </thead>
            <tbody>
              {ledger.rows.map((r) => (
                <tr data-ledger-left={r.after}>
                  <td>
                    <Time at={r.at} lang={lang} />
                  </td>
                  <td>{ctx.person(r.actorUserId)}</td>
                  <td>
                    <Inline text={r.text} ctx={ctx} />
                    {r.reason ? <em class="reason"> — {r.reason}</em> : null}
                  </td>
                  <td class="num">
                    {r.before ?? "—"} → <strong>{r.after}</strong> / {r.total}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{t(lang, "web.reserve.empty")}</p>
      )}
      <h3>{t(lang, "web.standings")}</h3>
      <table class="standings">
        <thead>
          <tr>
            <th />
            <th>{t(lang, "web.standings.vp")}</th>
            <th>{t(lang, "web.standings.status")}</th>
          </tr>
        </thead>
        <tbody>
          {ledger.hunters.map((h) => (
            <tr data-hunter={h.name} data-vp={h.vp}>
              <td>{h.name}</td>
              <td class="num">{h.vp}</td>
              <td>{t(lang, familyKey("character.status.", h.status))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AspectSection({ data, ctx }: { data: PageData; ctx: TextContext }) {
  const board = data.board!;
  const lang = ctx.lang;
  const list = (aspects: typeof board.scene) => (
    <ul class="aspects">
      {aspects.map((a) => (
        <li class="aspect" data-aspect={a.name} data-free={a.freeInvokes}>
          <span class="aspect-name">{a.name}</span> <span class="kind">{a.kind}</span>
          {a.freeInvokes > 0 ? (
            <span class="free">
              {" "}
              {t(lang, "web.aspects.free", { count: a.freeInvokes })}
              {a.holders ? ` (${a.holders})` : ""}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
  const empty = board.scene.length + board.characters.length + board.factions.length === 0;
  return (
    <section id="aspects">
      <h2>{t(lang, "web.aspects.title")}</h2>
      {empty ? <p>{t(lang, "web.aspects.none")}</p> : null}
      <div class="board">
        {board.scene.length ? (
          <div class="card">
            <h3>{t(lang, "web.aspects.scene")}</h3>
            {list(board.scene)}
          </div>
        ) : null}
        {board.characters.map((c) => (
          <div class="card">
            <h3>{c.name}</h3>
            {list(c.aspects)}
          </div>
        ))}
        {board.factions.map((c) => (
          <div class="card faction">
            <h3>{c.name}</h3>
            {list(c.aspects)}
          </div>
        ))}
      </div>
      {data.factions.length ? (
        <>
          <h3>{t(lang, "web.factions")}</h3>
          <div class="cards">
            {data.factions.map((f) => (
              <Embed embed={f} ctx={ctx} />
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}

function JournalLine({
  entry,
  ctx,
  names,
}: {
  entry: JournalEntry;
  ctx: TextContext;
  names: Map<number, string>;
}) {
  return (
    <li class={entry.secret ? "entry secret" : "entry"} data-kind={entry.kind} data-entry={entry.id}>
      <Time at={entry.at} lang={ctx.lang} withDate={false} />{" "}
      <span class="who">{ctx.person(entry.actorUserId)}</span>{" "}
      {entry.characterId !== null && names.has(entry.characterId) ? (
        <span class="char">[{names.get(entry.characterId)}] </span>
      ) : null}
      <Inline text={entry.text} ctx={ctx} />
      {entry.dice ? <span class="dice"> 🎲 {entry.dice}</span> : null}
      {entry.reason ? <em class="reason"> — {entry.reason}</em> : null}
      {entry.secret ? <span class="badge"> {t(ctx.lang, "web.secret")}</span> : null}
    </li>
  );
}

function Journal({
  data,
  ctx,
  urls,
  filter,
}: {
  data: PageData;
  ctx: TextContext;
  urls: PageUrls;
  filter: JournalFilter;
}) {
  const lang = ctx.lang;
  const names = new Map(data.sheets.map((s) => [s.id, s.name]));
  const sessions = sessionsOf(data.journal);
  const kinds = [
    "roll",
    "character",
    "conflict",
    "duel",
    "trust",
    "chapter",
    "darkfate",
    "damage",
    "reserve",
    "challenge",
    "fate",
    "session",
  ];
  let chapter = 1;
  return (
    <section id="journal">
      <h2>{t(lang, "web.journal.title")}</h2>
      <form method="get" action={`${urls.self}#journal`} class="filter">
        <label>
          {t(lang, "web.journal.character")}{" "}
          <select name="character">
            <option value="">{t(lang, "web.journal.all")}</option>
            {data.sheets.map((s) => (
              <option value={String(s.id)} selected={filter.characterId === s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          {t(lang, "web.journal.kind")}{" "}
          <select name="kind">
            <option value="">{t(lang, "web.journal.all")}</option>
            {kinds.map((k) => (
              <option value={k} selected={filter.kind === k}>
                {k}
              </option>
            ))}
          </select>
        </label>{" "}
        <input type="hidden" name="lang" value={lang} />
        <button type="submit">{t(lang, "web.journal.apply")}</button>
      </form>
      {sessions.length === 0 ? <p>{t(lang, "web.journal.empty")}</p> : null}
      {sessions
        .map((s, i) => ({ s, number: i + 1 }))
        .reverse()
        .map(({ s, number }) => {
          const first = s.entries[0]!;
          const recap = s.ended
            ? sessionRecap(
                lang,
                s.entries.filter((e) => !e.secret),
                ctx.person,
                (id) => names.get(id),
              )
            : null;
          return (
            <details class="session" open={number === sessions.length} data-session={number}>
              <summary>
                {t(lang, "web.journal.session", { number })} · <Time at={first.at} lang={lang} />
                {s.ended ? "" : ` · ${t(lang, "web.journal.open")}`}
              </summary>
              {recap ? (
                <div class="recap">
                  <h4>{t(lang, "web.journal.recap")}</h4>
                  <Markdown text={recap.join("\n")} ctx={ctx} />
                </div>
              ) : null}
              <ul class="log">
                {s.entries.map((e) => {
                  const marker =
                    e.action === "chapter.next" ? (
                      <li class="marker">{t(lang, "web.journal.chapter", { chapter: ++chapter })}</li>
                    ) : e.summary.key === "bh.log.reserveNewAdventure" ? (
                      <li class="marker">{t(lang, "web.journal.adventure")}</li>
                    ) : null;
                  return (
                    <>
                      <JournalLine entry={e} ctx={ctx} names={names} />
                      {marker}
                    </>
                  );
                })}
              </ul>
            </details>
          );
        })}
      {data.journal.length > 0 ? (
        <p class="pager">
          <a
            href={`${urls.self}?before=${data.journal[0]!.id}&lang=${lang}${filter.kind ? `&kind=${filter.kind}` : ""}${filter.characterId ? `&character=${filter.characterId}` : ""}#journal`}
          >
            {t(lang, "web.journal.older")}
          </a>
          {filter.beforeId ? (
            <>
              {" · "}
              <a href={`${urls.self}?lang=${lang}#journal`}>{t(lang, "web.journal.newest")}</a>
            </>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

/** The whole document. */
export function renderPage(data: PageData, urls: PageUrls, filter: JournalFilter): string {
  const lang = data.viewer.lang;
  const system = t(lang, familyKey("system.", data.table.system));
  return html(
    <Document lang={lang} title={t(lang, "web.title", { system })} live={urls.live}>
      <PageBody data={data} urls={urls} filter={filter} />
    </Document>,
  );
}

/** Only the `<main>`, for the live stream. */
export function renderBody(data: PageData, urls: PageUrls, filter: JournalFilter): string {
  return render(<PageBody data={data} urls={urls} filter={filter} />);
}
