import type { Intent } from "../app/intent.js";

/**
 * A component's custom_id carries its whole intent, so any process can handle the click
 * after any restart with no in-memory state: `i1|<type>|<json of the other fields>`.
 * Decoded intents are untrusted input: they are validated by the use case's schema.
 */
const PREFIX = "i1";
export const CUSTOM_ID_MAX = 100;

export function encodeIntent(intent: Intent): string {
  const { type, ...fields } = intent;
  const body = Object.keys(fields).length > 0 ? JSON.stringify(fields) : "";
  const id = `${PREFIX}|${type}|${body}`;
  if (id.length > CUSTOM_ID_MAX) throw new Error(`custom_id too long (${id.length}) for ${type}`);
  return id;
}

export function decodeIntent(customId: string): Intent | null {
  const [prefix, type, ...rest] = customId.split("|");
  if (prefix !== PREFIX || !type || !/^[a-z][\w.-]*$/i.test(type)) return null;
  const body = rest.join("|");
  if (body === "") return { type };
  try {
    const fields: unknown = JSON.parse(body);
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return null;
    return { ...(fields as Record<string, unknown>), type };
  } catch {
    return null;
  }
}
