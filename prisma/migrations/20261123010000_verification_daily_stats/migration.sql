-- CreateTable
CREATE TABLE "verification_daily_stats" (
    "workspace_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "app_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "created" INTEGER NOT NULL,
    "completed" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "cancelled" INTEGER NOT NULL,
    "expired" INTEGER NOT NULL,
    "open" INTEGER NOT NULL,
    "started" INTEGER NOT NULL,
    "authenticated" INTEGER NOT NULL,
    "complete_seconds_histogram" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "verification_daily_stats_pkey" PRIMARY KEY ("workspace_id","environment","day","app_id","provider_id")
);

