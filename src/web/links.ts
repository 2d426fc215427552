/**
 * The campaign page's links (`/table page`): `<WEB_BASE_URL>/p/<token>`, where the token is the
 * link's claims — table, user, viewer kind, language, expiry and the table's link generation — and
 * an HMAC-SHA256 over them with a key derived from the bot's key (the one that seals table
 * backups, src/app/common/table-backup.ts). Nothing is stored per link: revoking raises the
 * table's generation (`table_page`), and every older link fails its check, which runs on every
 * request, the live stream's included.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { botSecret, derivedKey } from "../app/common/table-backup.js";
import type { GameTable } from "../generated/prisma/client.js";
import { LANGS, type Lang } from "../i18n/index.js";
import { type Db, sqlFor, type Tx } from "../store/db.js";

/** Who a link is for: a member of the table (what they may see in Discord), or a spectator (public only). */
export type LinkKind = "member" | "spectator";

export interface LinkClaims {
  tableId: number;
  /** The user the link was made for (a spectator link: the GM who made it; it shows nothing of theirs). */
  userId: string;
  kind: LinkKind;
  lang: Lang;
  /** Seconds since the epoch. */
  expiresAt: number;
  generation: number;
}

const claimsSchema = z.object({
  t: z.number().int().positive(),
  u: z.string().regex(/^\d{1,20}$/),
  k: z.enum(["member", "spectator"]),
  l: z.enum(LANGS as [Lang, ...Lang[]]),
  e: z.number().int(),
  g: z.number().int().min(0),
});

export interface LinkSettings {
  baseUrl: string;
  days: number;
}

let settings: LinkSettings = { baseUrl: "http://localhost:8090", days: 7 };

/** Set at start-up from WEB_BASE_URL and WEB_LINK_DAYS (src/main.ts). */
export function configurePageLinks(next: LinkSettings): void {
  settings = { ...next, baseUrl: next.baseUrl.replace(/\/+$/, "") };
}

export function pageLinkSettings(): LinkSettings {
  return settings;
}

/** The signing key, read from the database once per process. */
let signingKey: Promise<Buffer> | null = null;
function linkKey(tx: Db | Tx): Promise<Buffer> {
  signingKey ??= botSecret(tx).then(
    (secret) => derivedKey(secret, "table-page link"),
    (error) => {
      signingKey = null;
      throw error;
    },
  );
  return signingKey;
}

const mac = (key: Buffer, payload: string) =>
  createHmac("sha256", key).update(payload).digest().toString("base64url");

/** The table's current link generation (0 until its first revocation). */
export async function linkGeneration(tx: Db | Tx, tableId: number): Promise<number> {
  const row = await sqlFor(tx).one<{ linkGeneration: number }>`
    SELECT link_generation AS "linkGeneration" FROM table_page WHERE table_id = ${tableId}`;
  return row?.linkGeneration ?? 0;
}

/** Every link of the table stops working; links made after this work. */
export async function revokePageLinks(tx: Tx, tableId: number, now: Date): Promise<number> {
  const row = await sqlFor(tx).one<{ linkGeneration: number }>`
    INSERT INTO table_page (table_id, link_generation, revoked_at) VALUES (${tableId}, 1, ${now})
    ON CONFLICT (table_id) DO UPDATE SET link_generation = table_page.link_generation + 1, revoked_at = ${now}
    RETURNING link_generation AS "linkGeneration"`;
  return row!.linkGeneration;
}

export async function signToken(tx: Db | Tx, claims: LinkClaims): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({
      t: claims.tableId,
      u: claims.userId,
      k: claims.kind,
      l: claims.lang,
      e: claims.expiresAt,
      g: claims.generation,
    }),
  ).toString("base64url");
  return `${payload}.${mac(await linkKey(tx), payload)}`;
}

/** A link for `user` at `table`, valid for the configured days from `now`. */
export async function pageLink(
  tx: Db | Tx,
  table: GameTable,
  user: { userId: string; kind: LinkKind; lang: Lang },
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + settings.days * 24 * 3600_000);
  const token = await signToken(tx, {
    tableId: table.id,
    userId: user.userId,
    kind: user.kind,
    lang: user.lang,
    expiresAt: Math.floor(expiresAt.getTime() / 1000),
    generation: await linkGeneration(tx, table.id),
  });
  return { url: `${settings.baseUrl}/p/${token}`, expiresAt };
}

/** Why a token is refused: each gets the same plain page; the reason is for the log. */
export type LinkRefusal = "malformed" | "signature" | "expired" | "revoked" | "table";

/**
 * The claims of a token that is well formed, signed by this bot and not expired; what the
 * database must still confirm (generation, table) is checked by `checkLink`.
 */
export async function readToken(
  tx: Db | Tx,
  token: string,
  now: Date,
): Promise<{ ok: true; claims: LinkClaims } | { ok: false; reason: LinkRefusal; lang?: Lang }> {
  const match = /^([A-Za-z0-9_-]{8,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(mac(await linkKey(tx), payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: "signature" };
  let parsed: z.infer<typeof claimsSchema>;
  try {
    parsed = claimsSchema.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const claims: LinkClaims = {
    tableId: parsed.t,
    userId: parsed.u,
    kind: parsed.k,
    lang: parsed.l,
    expiresAt: parsed.e,
    generation: parsed.g,
  };
  if (claims.expiresAt * 1000 <= now.getTime()) return { ok: false, reason: "expired", lang: claims.lang };
  return { ok: true, claims };
}

/** A token's full check: signature, expiry, the table still active, the generation not revoked. */
export async function checkLink(
  tx: Db | Tx,
  token: string,
  now: Date,
): Promise<
  { ok: true; claims: LinkClaims; table: GameTable } | { ok: false; reason: LinkRefusal; lang?: Lang }
> {
  const read = await readToken(tx, token, now);
  if (!read.ok) return read;
  const { claims } = read;
  const row = await sqlFor(tx).one<GameTable & { linkGeneration: number | null }>`
    SELECT game_table.*, table_page.link_generation AS "linkGeneration"
    FROM game_table LEFT JOIN table_page ON table_page.table_id = game_table.id
    WHERE game_table.id = ${claims.tableId}`;
  if (row?.status !== "active") return { ok: false, reason: "table", lang: claims.lang };
  if ((row.linkGeneration ?? 0) !== claims.generation)
    return { ok: false, reason: "revoked", lang: claims.lang };
  const { linkGeneration: _generation, ...table } = row;
  return { ok: true, claims, table };
}

/** A token as the log may show it: its first characters only, never the whole link. */
export function tokenForLog(token: string): string {
  return `${token.slice(0, 6)}…`;
}
