import { expect } from "vitest";
import type { DiscordDouble, InteractionView, MessageView } from "../../src/double/index.js";
import { visibleText } from "../../src/double/index.js";
import type { E2E } from "./harness.js";

/**
 * A secrets audit for end-to-end tests: after playing a secret flow (secret roll, duel dice, secret
 * trust, dark fate…), prove that the secret reached nobody but the users entitled to it.
 *
 * A secret is a string or a RegExp. Pick something that cannot occur by chance: a dice list such as
 * "[17, 3, 12, 9]" or a dark fate's text, not a lone digit.
 *
 * ```ts
 * const secret = /7d20 \[[\d, ]+\]/; // or the exact text the entitled user saw
 * await auditSecret(e2e, secret, [player], { viewers: [gm, other], channelId: e2e.channelId });
 * ```
 */
export type Secret = string | RegExp;

function matcher(secret: Secret): (text: string) => boolean {
  if (typeof secret === "string") return (text) => text.includes(secret);
  const flags = secret.flags.replace("g", "");
  const re = new RegExp(secret.source, flags);
  return (text) => re.test(text);
}

const excerpt = (text: string) => JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text);

/** Everything a Discord client receives for one version of a message: its visible text and its custom_ids. */
function messageSurface(version: { content: string; embeds: unknown[]; components: unknown[] }): string {
  return `${visibleText(version)}\n${JSON.stringify(version.components)}`;
}

function audience(message: MessageView): string {
  if (message.visibleTo === null) return `everyone in channel ${message.channelId}`;
  return `${message.ephemeral ? "ephemeral for" : "DM to"} user ${message.visibleTo}`;
}

/**
 * Every place in the double where `secret` reached someone not in `entitledUserIds`: every version
 * of every channel message (deleted ones included), every other user's ephemerals and DMs, every
 * modal shown to another user, and every autocomplete answer (which must never list a secret, even
 * to the entitled). `botOutput` (the bot's captured stdout/stderr) must not contain it either.
 */
export function findSecretLeaks(
  double: DiscordDouble,
  secret: Secret,
  entitledUserIds: readonly string[],
  options: { botOutput?: readonly string[] } = {},
): string[] {
  const matches = matcher(secret);
  const leaks: string[] = [];
  for (const message of double.allMessages()) {
    if (message.visibleTo !== null && entitledUserIds.includes(message.visibleTo)) continue;
    message.history.forEach((version, index) => {
      const surface = messageSurface(version);
      if (matches(surface)) {
        leaks.push(
          `message ${message.id} (version ${index + 1} of ${message.history.length}, ${version.via}${message.deleted ? ", later deleted" : ""}) shown to ${audience(message)}: ${excerpt(surface)}`,
        );
      }
    });
  }
  for (const interaction of double.interactions()) {
    const entitled = entitledUserIds.includes(interaction.userId);
    if (interaction.choices && matches(JSON.stringify(interaction.choices))) {
      leaks.push(
        `autocomplete ${interaction.label} for user ${interaction.userId} listed it: ${excerpt(JSON.stringify(interaction.choices))}`,
      );
    }
    if (!entitled && interaction.modal && matches(JSON.stringify(interaction.modal))) {
      leaks.push(
        `modal of ${interaction.label} shown to user ${interaction.userId}: ${excerpt(JSON.stringify(interaction.modal))}`,
      );
    }
  }
  for (const line of options.botOutput ?? []) {
    if (matches(line)) leaks.push(`the bot's log: ${excerpt(line)}`);
  }
  return leaks;
}

/** Fails the test with the list of leaks, if there is any. */
export function assertSecretNotLeaked(
  double: DiscordDouble,
  secret: Secret,
  entitledUserIds: readonly string[],
  options: { botOutput?: readonly string[] } = {},
): void {
  expect(
    findSecretLeaks(double, secret, entitledUserIds, options),
    `secret ${String(secret)} leaked`,
  ).toEqual([]);
}

/** Runs `/table log` as `userId` (what that player can read of the table's history) and returns the answer. */
export async function readTableLogAs(
  double: DiscordDouble,
  userId: string,
  channelId: string,
): Promise<InteractionView> {
  return double.slash(userId, channelId, "table", ["log"], { limit: 50 }).settled();
}

/**
 * The full audit: first every `viewer` (users who are not entitled: other players, and the GM
 * unless the GM is entitled) reads `/table log` in `channelId`, so their view of the log is
 * checked too; then the secret must appear nowhere but with the entitled users — messages,
 * ephemerals, DMs, modals, autocomplete, the bot's own log output — and in no log entry stored
 * for anyone else to read.
 */
export async function auditSecret(
  e2e: E2E,
  secret: Secret,
  entitledUserIds: readonly string[],
  options: { viewers: readonly string[]; channelId?: string },
): Promise<void> {
  const channelId = options.channelId ?? e2e.channelId;
  for (const viewer of options.viewers) {
    if (entitledUserIds.includes(viewer)) throw new Error(`viewer ${viewer} is entitled to the secret`);
    const log = await readTableLogAs(e2e.double, viewer, channelId);
    expect(log.original?.text ?? log.followups[0]?.text ?? "", `/table log as ${viewer}`).not.toBe("");
  }
  assertSecretNotLeaked(e2e.double, secret, entitledUserIds, { botOutput: await e2e.bot.writtenOutput() });
  const rows = await e2e.database.query<{ id: string; visible_to: string | null; entry: string }>(
    "SELECT id::text, visible_to, json_build_array(summary, before, after, dice, reason)::text AS entry FROM log_entry",
  );
  const matches = matcher(secret);
  const stored = rows
    .filter((r) => r.visible_to === null || !entitledUserIds.includes(r.visible_to))
    .filter((r) => matches(r.entry))
    .map((r) => `log entry ${r.id} readable by ${r.visible_to ?? "everyone"}: ${excerpt(r.entry)}`);
  expect(stored, `secret ${String(secret)} stored where others can read it`).toEqual([]);
}
