-- Beast Hunters: the adventure the reserve pays for — each hunter's standing (playing, lost, won,
-- retired, dead), challenges and concessions played, VP earned, and how it ended (JSON kept by
-- src/rules/beast-hunters/adventure.ts).
ALTER TABLE "reserve_pool" ADD COLUMN "adventure" JSONB NOT NULL DEFAULT '{}';
