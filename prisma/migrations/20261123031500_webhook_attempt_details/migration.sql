-- AlterTable
ALTER TABLE "webhook_delivery_attempts" ADD COLUMN     "request_headers" JSONB,
ADD COLUMN     "response_body" TEXT,
ADD COLUMN     "response_body_truncated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "response_headers" JSONB;
