-- The command set each guild was last given on Discord, by application: a restart puts only the
-- guilds whose set changed (src/discord/register.ts).
CREATE TABLE "registered_command_set" (
    "application_id" TEXT NOT NULL,
    "guild_id" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "registered_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "registered_command_set_pkey" PRIMARY KEY ("application_id", "guild_id")
);
