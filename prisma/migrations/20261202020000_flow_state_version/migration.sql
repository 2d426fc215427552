-- The shape version of a flow's JSON state: rows written before a change of shape are upgraded
-- when loaded (src/app/flows.ts), so a conflict, duel or challenge in progress survives a deploy.
ALTER TABLE "flow" ADD COLUMN "state_version" INTEGER NOT NULL DEFAULT 1;
