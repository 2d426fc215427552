/**
 * The floor: the least a discord.js bot can do — log in to the same Discord double and answer
 * every interaction with a fixed reply, no database, no routing. The benchmark compares our
 * latencies with this one's, so what is measured is our own time, not the double's or the machine's.
 */
import { Client, Events, GatewayIntentBits } from "discord.js";

const client = new Client({
  intents: [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages],
  rest: { api: process.env.DISCORD_API_BASE ?? "https://discord.com/api" },
});
const log = (fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fields)}\n`);

client.on(Events.InteractionCreate, async (interaction) => {
  try {
    if (interaction.isAutocomplete()) await interaction.respond([]);
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
