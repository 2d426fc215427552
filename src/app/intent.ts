import { z } from "zod";

/**
 * An intent is what a user asked for, independent of how (slash command, button, select,
 * modal): `{ type: "conflict.assist", flowId: 3, target: "Akio" }`. Every intent is
 * validated by its use case's zod schema, whichever path it came by.
 */
export interface Intent {
  type: string;
  [field: string]: unknown;
}

/** The fields of each intent type an area defines (its `type` aside), as zod shapes. */
export type IntentFields = Record<string, z.ZodRawShape>;

/** An area's intent schemas: each type's fields plus `type`, the literal written once. */
export type IntentSchemas<F extends IntentFields> = {
  [K in keyof F & string]: z.ZodObject<{ type: z.ZodLiteral<K> } & F[K]>;
};

/**
 * An area's intent catalogue (`<area>/intents.ts`): the schemas its use cases validate with
 * (`schema: mwIntents["chapter.next"]`), and the type its views' buttons are checked against
 * (`KnownIntent` in intents.ts). A catalogue module imports no views, so the types do not circle.
 */
export function defineIntents<const F extends IntentFields>(fields: F): IntentSchemas<F> {
  const schemas: Record<string, z.ZodObject> = {};
  for (const [type, shape] of Object.entries(fields))
    schemas[type] = z.object({ type: z.literal(type), ...shape });
  return schemas as IntentSchemas<F>;
}

/** The intents a catalogue's schemas accept, as a button or a panel would write them. */
export type IntentsOf<S extends Record<string, z.ZodType>> = { [K in keyof S]: z.input<S[K]> }[keyof S];
