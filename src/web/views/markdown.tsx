/**
 * The Discord markdown the bot's views write (`**bold**`, `~~struck~~`, `_italic_`, `` `code` ``,
 * `<@user>` mentions, `<t:…>` timestamps), shown as page elements. Every piece of text becomes a
 * text node, which preact escapes: nothing a user wrote is ever read as HTML.
 */
import type { ComponentChildren } from "preact";
import type { Lang } from "../../i18n/index.js";

export interface TextContext {
  lang: Lang;
  /** Who a Discord user is on the page (their characters, or "GM"). */
  person: (userId: string) => string;
}

const TOKEN =
  /(\*\*[^*\n]+\*\*|~~[^~\n]+~~|(?<![\w*])_[^_\n]+_(?!\w)|`[^`\n]+`|<@!?\d{1,20}>|<t:\d{1,12}(?::[a-zA-Z])?>)/;

function inline(text: string, ctx: TextContext): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  for (const [i, part] of text.split(TOKEN).entries()) {
    if (part === "") continue;
    if (i % 2 === 0) {
      out.push(part);
      continue;
    }
    if (part.startsWith("**")) out.push(<strong>{inline(part.slice(2, -2), ctx)}</strong>);
    else if (part.startsWith("~~")) out.push(<s>{inline(part.slice(2, -2), ctx)}</s>);
    else if (part.startsWith("_")) out.push(<em>{inline(part.slice(1, -1), ctx)}</em>);
    else if (part.startsWith("`")) out.push(<code>{part.slice(1, -1)}</code>);
    else if (part.startsWith("<@")) out.push(<span class="who">{ctx.person(part.replace(/\D/g, ""))}</span>);
    else {
      const seconds = Number(/\d+/.exec(part)?.[0] ?? 0);
      out.push(<Time at={new Date(seconds * 1000)} lang={ctx.lang} />);
    }
  }
  return out;
}

/** Formatters are costly to make and a page shows hundreds of times: one per language and form. */
const formats = new Map<string, Intl.DateTimeFormat>();
function timeFormat(lang: Lang, withDate: boolean): Intl.DateTimeFormat {
  const key = `${lang}:${withDate}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      ...(withDate ? { day: "numeric", month: "short" } : {}),
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: "UTC",
    });
    formats.set(key, format);
  }
  return format;
}

/** A moment, in UTC (the log's time; Discord's own timestamps show local time in the client). */
export function Time({ at, lang, withDate = true }: { at: Date; lang: Lang; withDate?: boolean }) {
  // The journal's many times of day: 24-hour HH:MM, without a formatter call each.
  const text = withDate
    ? timeFormat(lang, withDate).format(at)
    : `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
  return <time dateTime={at.toISOString()}>{text}</time>;
}

/** One line of markdown. */
export function Inline({ text, ctx }: { text: string; ctx: TextContext }) {
  return <>{inline(text, ctx)}</>;
}

/** Several lines: bullet lines ("• …") become a list, the rest paragraphs. */
export function Markdown({ text, ctx }: { text: string; ctx: TextContext }) {
  const blocks: ComponentChildren[] = [];
  let bullets: string[] = [];
  const flush = () => {
    if (bullets.length === 0) return;
    blocks.push(
      <ul>
        {bullets.map((b) => (
          <li>{inline(b, ctx)}</li>
        ))}
      </ul>,
    );
    bullets = [];
  };
  for (const line of text.split("\n")) {
    const bullet = /^\s*[•\-*]\s+(.*)$/.exec(line);
    if (bullet) bullets.push(bullet[1]!);
    else {
      flush();
      if (line.trim()) blocks.push(<p>{inline(line, ctx)}</p>);
    }
  }
  flush();
  return <>{blocks}</>;
}
