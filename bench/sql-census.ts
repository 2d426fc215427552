/**
 * Preloaded into the bot by `npm run bench -- --sql-census` (node --import): counts every SQL
 * statement the pg driver sends, by text, and writes the census to $SQL_CENSUS_FILE at exit. On
 * SIGUSR2 it writes the census of the window since the previous SIGUSR2 (or the start) to
 * $SQL_CENSUS_FILE.window and starts a new window: the bench's census of one command class.
 * Only for measuring; production never loads it.
 */
import { renameSync, writeFileSync } from "node:fs";
import pg from "pg";

const counts = new Map<string, number>();
let windowCounts = new Map<string, number>();
const count = (map: Map<string, number>, text: string) => map.set(text, (map.get(text) ?? 0) + 1);
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);

/**
 * A statement's text with its literals as placeholders: a batch sent as one text (several
 * statements, values inlined) counts as one shape — one round trip — not one entry per value.
 */
const shape = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .replace(/'(?:[^']|'')*'/g, "'…'")
    .replace(/(?<![$\w])\d+(?:\.\d+)?\b/g, "N")
    .trim();

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const q = args[0] as string | { text?: string };
  const text = shape(typeof q === "string" ? q : (q?.text ?? "?"));
  count(counts, text);
  count(windowCounts, text);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

process.on("exit", () => {
  const file = process.env.SQL_CENSUS_FILE;
  if (!file) return;
  writeFileSync(file, JSON.stringify(sorted(counts), null, 1));
});

process.on("SIGUSR2", () => {
  const file = process.env.SQL_CENSUS_FILE;
  if (!file) return;
  // Whole or not at all: the bench reads the file as soon as it appears.
  writeFileSync(`${file}.window.tmp`, JSON.stringify(sorted(windowCounts)));
  renameSync(`${file}.window.tmp`, `${file}.window`);
  windowCounts = new Map();
});
