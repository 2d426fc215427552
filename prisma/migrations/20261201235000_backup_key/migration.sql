-- CreateTable
CREATE TABLE "backup_key" (
    "id" INTEGER NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "backup_key_pkey" PRIMARY KEY ("id")
);
