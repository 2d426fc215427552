/**
 * The floor: the least a discord.js bot can do — log in to the same Discord double and answer
 * every interaction with a fixed reply, no database, no routing. The benchmark compares our
 * latencies with this one's, so what is measured is our own time, not the double's or the machine's.
 */
import { Client, Events, GatewayIntentBits, type RepliableInteraction, Routes } from "discord.js";

const client = new Client({
  intents: [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages],
  rest: { api: process.env.DISCORD_API_BASE ?? "https://discord.com/api" },
});
const log = (fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fields)}\n`);

/**
 * `FLOOR_REPLY=panel`: the Discord work of a Fate check instead of a fixed reply — a panel-sized
 * answer (an embed, four buttons, a select menu) whose message id is read back, and every other
 * answer also redraws the channel's previous panel. It shows what that work costs discord.js
 * alone, with no database and no rules. `FLOOR_REPLY=panel-no-redraw`: the same panels, never a
 * redraw — what the redraws themselves cost.
 */
const panelReplies = process.env.FLOOR_REPLY === "panel" || process.env.FLOOR_REPLY === "panel-no-redraw";
const redrawsPanels = process.env.FLOOR_REPLY === "panel";
const PANEL_EMBED = {
  title: "Kenji: Fight, overcome",
  description:
    "Dice: [+] [0] [-] [+] (+1)\nFight +3, bonus +0 → **Good (+4)** against Fair (+2): success. Invoke an aspect for +2 or a reroll.",
  color: 0x3ba55d,
  fields: ["Fate points", "Free invokes", "Skill", "Opposition"].map((name) => ({
    name,
    value: "3",
    inline: true,
  })),
  footer: { text: "Your latest check: /invoke applies to it" },
};
const PANEL_ROWS = [
  {
    type: 1,
    components: [1, 2, 3, 4].map((i) => ({
      type: 2,
      style: 1,
      label: `Invoke ${i}`,
      custom_id: `floor:${i}`,
    })),
  },
  {
    type: 1,
    components: [
      {
        type: 3,
        custom_id: "floor:select",
        placeholder: "Difficulty",
        options: [-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8].map((v) => ({ label: `Level ${v}`, value: String(v) })),
      },
    ],
  },
];
const lastPanelIn = new Map<string, string>();
let panelsPosted = 0;

async function answerWithPanel(interaction: RepliableInteraction) {
  const channelId = interaction.channelId ?? "";
  const response = await interaction.reply({
    embeds: [PANEL_EMBED],
    components: PANEL_ROWS as never,
    withResponse: true,
  });
  const previous = lastPanelIn.get(channelId);
  const id = response.resource?.message?.id;
  if (id) lastPanelIn.set(channelId, id);
  if (previous && redrawsPanels && panelsPosted++ % 2 === 0) {
    await client.rest.patch(Routes.channelMessage(channelId, previous), {
      body: { embeds: [PANEL_EMBED], components: [] },
    });
  }
}

client.on(Events.InteractionCreate, async (interaction) => {
  try {
    if (interaction.isAutocomplete()) await interaction.respond([]);
    else if (interaction.isRepliable() && panelReplies) await answerWithPanel(interaction);
    else if (interaction.isRepliable()) await interaction.reply({ content: "ok" });
  } catch (error) {
    log({ msg: "reply failed", err: String(error) });
  }
});
client.once(Events.ClientReady, (ready) => log({ msg: "ready", guilds: ready.guilds.cache.size }));
process.on("SIGTERM", () => {
  void client.destroy().finally(() => process.exit(0));
});
await client.login(process.env.DISCORD_TOKEN);
