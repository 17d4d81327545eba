import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.IDV_MASTER_KEY ??= "test-master-key-0123456789abcdef";
process.env.PUBLIC_URL ??= "http://localhost:3000";
process.env.IDV_VALIDATE_RESPONSES = "1";
