-- CreateTable
CREATE TABLE "dice_rolled" (
    "id" BIGSERIAL NOT NULL,
    "table_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "visible_to" TEXT,
    "sides" INTEGER[],
    "faces" INTEGER[],

    CONSTRAINT "dice_rolled_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "dice_rolled_table_id_at_idx" ON "dice_rolled"("table_id", "at");

-- AddForeignKey
ALTER TABLE "dice_rolled" ADD CONSTRAINT "dice_rolled_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "game_table"("id") ON DELETE CASCADE ON UPDATE CASCADE;
