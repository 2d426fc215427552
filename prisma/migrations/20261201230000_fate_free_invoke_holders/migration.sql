-- AlterTable: whose each free invoke on an aspect is (holder and side); NULL = anyone's.
ALTER TABLE "aspect" ADD COLUMN "free_invoke_holders" JSONB;
