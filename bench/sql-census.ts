/**
 * Preloaded into the bot by `npm run bench -- --sql-census` (node --import): counts every SQL
 * statement the pg driver sends, by text, and writes the census to $SQL_CENSUS_FILE at exit.
 * Only for measuring; production never loads it.
 */
import { writeFileSync } from "node:fs";
import pg from "pg";

const counts = new Map<string, number>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const q = args[0] as string | { text?: string };
  const text = (typeof q === "string" ? q : (q?.text ?? "?")).replace(/\s+/g, " ").trim();
  counts.set(text, (counts.get(text) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

process.on("exit", () => {
  const file = process.env.SQL_CENSUS_FILE;
  if (!file) return;
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  writeFileSync(file, JSON.stringify(sorted, null, 1));
});
