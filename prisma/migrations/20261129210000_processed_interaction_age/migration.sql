-- Interaction ids are only needed while Discord could still deliver the interaction again (it
-- expires after 15 minutes); older rows are deleted in batches (src/store/prune.ts). Rows arrive
-- in time order, so a BRIN index finds the old ones at almost no cost per insert.
CREATE INDEX "processed_interaction_processed_at_idx" ON "processed_interaction" USING BRIN ("processed_at");
