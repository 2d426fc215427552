import { Client, GatewayIntentBits, Options, Partials } from "discord.js";

/**
 * The gateway client: Guilds + DirectMessages only (no privileged intents), and caches
 * cut to what routing needs so memory stays flat however many guilds the bot is in.
 */
export function createClient(options: { apiBase?: string; shards?: number[]; shardCount?: number }) {
  return new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages],
    partials: [Partials.Channel],
    rest: {
      ...(options.apiBase ? { api: options.apiBase } : {}),
      // Give up on a request rather than leave a player waiting for ever.
      timeout: 10_000,
      retries: 3,
    },
    ...(options.shards ? { shards: options.shards } : {}),
    ...(options.shardCount ? { shardCount: options.shardCount } : {}),
    allowedMentions: { parse: [], repliedUser: false },
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      UserManager: 0,
      GuildMemberManager: 0,
      PresenceManager: 0,
      ReactionManager: 0,
      ThreadManager: 0,
      VoiceStateManager: 0,
      GuildEmojiManager: 0,
      GuildStickerManager: 0,
      GuildInviteManager: 0,
      GuildBanManager: 0,
      GuildScheduledEventManager: 0,
      StageInstanceManager: 0,
      AutoModerationRuleManager: 0,
      ApplicationCommandManager: 0,
    }),
  });
}
