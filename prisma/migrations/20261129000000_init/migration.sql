-- CreateTable
CREATE TABLE "game_table" (
    "id" SERIAL NOT NULL,
    "guild_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "active_channel_id" TEXT,
    "system" TEXT NOT NULL,
    "gm_user_id" TEXT NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'auto',
    "trust_mode" TEXT NOT NULL DEFAULT 'secret',
    "status" TEXT NOT NULL DEFAULT 'active',
    "chapter" INTEGER NOT NULL DEFAULT 1,
    "state" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archived_at" TIMESTAMP(3),

    CONSTRAINT "game_table_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "character" (
    "id" SERIAL NOT NULL,
    "table_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "owner_user_id" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'pc',
    "strength" TEXT NOT NULL DEFAULT 'strong',
    "zodiac" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "sheet" JSONB NOT NULL DEFAULT '{}',
    "fate_points" INTEGER NOT NULL DEFAULT 0,
    "refresh" INTEGER NOT NULL DEFAULT 3,
    "victory_points" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "character_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trust_link" (
    "table_id" INTEGER NOT NULL,
    "giver_id" INTEGER NOT NULL,
    "holder_id" INTEGER NOT NULL,
    "value" INTEGER NOT NULL,
    "points" INTEGER NOT NULL,

    CONSTRAINT "trust_link_pkey" PRIMARY KEY ("giver_id","holder_id")
);

-- CreateTable
CREATE TABLE "damage_entry" (
    "id" SERIAL NOT NULL,
    "table_id" INTEGER NOT NULL,
    "character_id" INTEGER NOT NULL,
    "duration" TEXT NOT NULL,
    "ability" TEXT,
    "condition" TEXT,
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cleared_at" TIMESTAMP(3),

    CONSTRAINT "damage_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reserve_pool" (
    "table_id" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,
    "ceiling" INTEGER NOT NULL,
    "spent" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reserve_pool_pkey" PRIMARY KEY ("table_id")
);

-- CreateTable
CREATE TABLE "aspect" (
    "id" SERIAL NOT NULL,
    "table_id" INTEGER NOT NULL,
    "character_id" INTEGER,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "free_invokes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removed_at" TIMESTAMP(3),

    CONSTRAINT "aspect_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow" (
    "id" SERIAL NOT NULL,
    "table_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "state" JSONB NOT NULL,
    "panel_channel_id" TEXT,
    "panel_message_id" TEXT,
    "created_by_user_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMP(3),

    CONSTRAINT "flow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "log_entry" (
    "id" BIGSERIAL NOT NULL,
    "table_id" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_user_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "character_id" INTEGER,
    "summary" JSONB NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "dice" JSONB,
    "reason" TEXT,
    "visible_to" TEXT,

    CONSTRAINT "log_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_interaction" (
    "id" TEXT NOT NULL,
    "processed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_interaction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "game_table_active_channel_id_key" ON "game_table"("active_channel_id");

-- CreateIndex
CREATE INDEX "game_table_guild_id_idx" ON "game_table"("guild_id");

-- CreateIndex
CREATE INDEX "character_table_id_owner_user_id_idx" ON "character"("table_id", "owner_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "character_table_id_name_key_key" ON "character"("table_id", "name_key");

-- CreateIndex
CREATE INDEX "trust_link_table_id_idx" ON "trust_link"("table_id");

-- CreateIndex
CREATE INDEX "damage_entry_character_id_idx" ON "damage_entry"("character_id");

-- CreateIndex
CREATE INDEX "aspect_table_id_name_key_idx" ON "aspect"("table_id", "name_key");

-- CreateIndex
CREATE INDEX "flow_table_id_kind_status_idx" ON "flow"("table_id", "kind", "status");

-- CreateIndex
CREATE INDEX "log_entry_table_id_id_idx" ON "log_entry"("table_id", "id");

-- AddForeignKey
ALTER TABLE "character" ADD CONSTRAINT "character_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trust_link" ADD CONSTRAINT "trust_link_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trust_link" ADD CONSTRAINT "trust_link_giver_id_fkey" FOREIGN KEY ("giver_id") REFERENCES "character"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trust_link" ADD CONSTRAINT "trust_link_holder_id_fkey" FOREIGN KEY ("holder_id") REFERENCES "character"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "damage_entry" ADD CONSTRAINT "damage_entry_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "damage_entry" ADD CONSTRAINT "damage_entry_character_id_fkey" FOREIGN KEY ("character_id") REFERENCES "character"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reserve_pool" ADD CONSTRAINT "reserve_pool_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "aspect" ADD CONSTRAINT "aspect_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "aspect" ADD CONSTRAINT "aspect_character_id_fkey" FOREIGN KEY ("character_id") REFERENCES "character"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow" ADD CONSTRAINT "flow_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "log_entry" ADD CONSTRAINT "log_entry_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Invariants the rules promise, enforced by the database as the last line of defence
-- (Prisma does not model CHECK constraints; they do not affect schema diffs).
ALTER TABLE "trust_link" ADD CONSTRAINT "trust_link_value_nonneg" CHECK ("value" >= 0);
ALTER TABLE "trust_link" ADD CONSTRAINT "trust_link_points_range" CHECK ("points" >= 0 AND "points" <= "value");
ALTER TABLE "trust_link" ADD CONSTRAINT "trust_link_not_self" CHECK ("giver_id" <> "holder_id");
ALTER TABLE "reserve_pool" ADD CONSTRAINT "reserve_pool_amounts" CHECK ("total" >= 0 AND "ceiling" >= 0 AND "spent" >= 0 AND "spent" <= "total");
ALTER TABLE "character" ADD CONSTRAINT "character_fate_points_nonneg" CHECK ("fate_points" >= 0);
ALTER TABLE "character" ADD CONSTRAINT "character_victory_points_nonneg" CHECK ("victory_points" >= 0);
ALTER TABLE "character" ADD CONSTRAINT "character_refresh_nonneg" CHECK ("refresh" >= 0);
ALTER TABLE "aspect" ADD CONSTRAINT "aspect_free_invokes_nonneg" CHECK ("free_invokes" >= 0);
