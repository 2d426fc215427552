-- Each user's own Discord language, as last seen: private output to a user who is not the one
-- acting (a DM at the start of a trust round, a duellist's secret dice redrawn by the other
-- duellist) is written in it.
CREATE TABLE "user_language" (
    "user_id" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "seen_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_language_pkey" PRIMARY KEY ("user_id")
);

-- A table speaks one language (en | ru), chosen at /table setup from the GM's client. The old
-- 'auto' (whoever acted last) is gone: a table still marked 'auto' takes its GM's language the
-- next time the GM is seen (src/app/languages.ts), since nothing stored before knew it.
ALTER TABLE "game_table" ALTER COLUMN "language" SET DEFAULT 'en';
