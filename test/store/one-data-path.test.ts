import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The one data path (docs/ARCHITECTURE.md, "Store"): inside the product every statement is raw SQL
 * through a `Tx` or the pool, never Prisma's query builder or its raw methods, and every write to
 * game_table goes through src/store/tables.ts (which notes it for the table cache).
 */
const SRC = path.join(import.meta.dirname, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const MODELS =
  "gameTable|character|flow|logEntry|aspect|trustLink|damageEntry|reservePool|diceRolled|savedRoll|userLanguage|backupKey|processedInteraction";
const BUILDER = new RegExp(
  `\\.(${MODELS})\\s*\\.\\s*(find\\w*|create\\w*|update\\w*|upsert|delete\\w*|count|aggregate|groupBy)\\s*\\(|\\$(queryRaw|executeRaw|transaction)\\w*`,
);
const TABLE_WRITE = /\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+"?game_table"?\b|NULL::"?game_table"?/i;

/** `file:line: text` for every line of `text` that breaks the rule. */
function offenders(file: string, text: string, rule: RegExp): string[] {
  return text
    .split("\n")
    .flatMap((line, i) => (rule.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : []));
}

describe("one data path", () => {
  const files = sources(SRC).map((file) => ({ file, text: readFileSync(file, "utf8") }));

  it("the rules would catch a query-builder call and a game_table write (they can fail)", () => {
    expect(offenders("x.ts", "await ctx.tx.gameTable.update({ where: { id } });", BUILDER)).toHaveLength(1);
    expect(offenders("x.ts", "  await db.$queryRaw`SELECT 1`", BUILDER)).toHaveLength(1);
    expect(offenders("x.ts", 'sql.run`UPDATE "game_table" SET chapter = 2`', TABLE_WRITE)).toHaveLength(1);
    expect(offenders("x.ts", "sql.run`INSERT INTO game_table (id) VALUES (1)`", TABLE_WRITE)).toHaveLength(1);
    expect(offenders("x.ts", "SELECT * FROM game_table WHERE id = 1", TABLE_WRITE)).toEqual([]);
  });

  it("no product code calls Prisma's query builder or its raw methods", () => {
    expect(files.flatMap(({ file, text }) => offenders(file, text, BUILDER))).toEqual([]);
  });

  it("every game_table write in the product is in src/store/tables.ts", () => {
    const outside = files.filter(({ file }) => !file.endsWith(path.join("store", "tables.ts")));
    expect(outside.flatMap(({ file, text }) => offenders(file, text, TABLE_WRITE))).toEqual([]);
    // …and tables.ts does write it (the rule still matches what it guards).
    const tables = files.find(({ file }) => file.endsWith(path.join("store", "tables.ts")))!;
    expect(offenders(tables.file, tables.text, TABLE_WRITE).length).toBeGreaterThanOrEqual(6);
  });
});
