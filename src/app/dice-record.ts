import type { DiceSource } from "../rules/dice.js";
import { type Db, sqlFor, Tx } from "../store/db.js";
import type { Intent } from "./intent.js";
import type { ActionResult } from "./use-case.js";

/**
 * Draws that are secret until a reveal (Mountain Witch duel dice, docs/rules/mountain-witch.md
 * §1) or are not dice at all (the dark-fate deck is drawn with the dice port): never counted in
 * `/table stats`, whose face counts would otherwise give them away.
 */
const UNCOUNTED_INTENTS = /^(duel|darkfate)\./;

/** The dice port of one interaction, remembering every die it rolls. */
export function recordingDice(dice: DiceSource): DiceSource & { sides: number[]; faces: number[] } {
  const sides: number[] = [];
  const faces: number[] = [];
  return {
    sides,
    faces,
    roll(n) {
      const face = dice.roll(n);
      sides.push(n);
      faces.push(face);
      return face;
    },
  };
}

/**
 * The dice rolled so far, handed to a statement that stores them itself (`recordOnce`): they are
 * then no longer the interaction's to store.
 */
export function takeRolledDice(dice: DiceSource): { sides: number[]; faces: number[] } | undefined {
  const rolled = dice as Partial<ReturnType<typeof recordingDice>>;
  if (!rolled.sides || !rolled.faces) return undefined;
  return { sides: rolled.sides.splice(0), faces: rolled.faces.splice(0) };
}

/**
 * Stores the dice an interaction rolled at a table: a private answer's dice (a secret roll) count
 * only in the roller's own statistics.
 */
export async function storeRolledDice(
  db: Db | Tx,
  tableId: number,
  userId: string,
  intent: Intent,
  result: ActionResult,
  rolled: { sides: number[]; faces: number[] },
): Promise<void> {
  if (rolled.sides.length === 0 || UNCOUNTED_INTENTS.test(intent.type)) return;
  const visibleTo = result.reply?.ephemeral ? userId : null;
  const insert = db instanceof Tx ? db.later.bind(db) : sqlFor(db).run;
  // In a transaction, sent with its COMMIT (nothing reads the dice back before).
  await insert`
    INSERT INTO dice_rolled (table_id, user_id, at, visible_to, sides, faces)
    VALUES (${tableId}, ${userId}, ${new Date()}, ${visibleTo}, ${`{${rolled.sides.join(",")}}`}::int[],
      ${`{${rolled.faces.join(",")}}`}::int[])`;
}
