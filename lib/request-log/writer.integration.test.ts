/**
 * The request log's batch INSERT (one prepared statement over arrays, lib/request-log/store.ts) stores each
 * entry exactly: text that array literals must escape, nulls, timestamps to the millisecond; a
 * row already written is skipped, not an error that drops the batch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { kysely } from "../db/client";
import { newId } from "../ids";
import type { RequestLogEntry } from "./entry";
import { appendRequestLog, flushRequestLog } from "./writer";

afterEach(async () => {
  await flushRequestLog();
});

function entry(overrides: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    id: newId("req"),
    workspaceId: newId("ws"),
    environment: "sandbox",
    method: "GET",
    path: "/api/sandbox/v1/apps",
    status: 200,
    durationMs: 3,
    errorCode: null,
    credentialType: "api_key",
    credentialId: newId("key"),
    credentialName: "Default key",
    appId: null,
    verificationId: null,
    createdAt: new Date("2026-05-06T07:08:09.123Z"),
    ...overrides,
  };
}

const logRows = (ids: string[]) =>
  kysely().selectFrom("apiRequestLogs").selectAll().where("id", "in", ids).execute();

describe("request log writer", () => {
  it("stores every field as given, whatever characters the text holds", async () => {
    const entries = [
      entry(),
      entry({
        environment: "production",
        method: "POST",
        path: '/api/production/v1/verifications/{"x"},\\ NULL "quoted" ’ü’ %00',
        status: 422,
        durationMs: 12_345,
        errorCode: "VALIDATION_ERROR",
        credentialType: "app",
        credentialName: 'a "name", with {braces} and \\backslash',
        appId: newId("app"),
        verificationId: newId("ver"),
        createdAt: new Date("2026-12-31T23:59:59.999Z"),
      }),
      entry({ workspaceId: null, credentialType: "none", credentialId: null, credentialName: "NULL" }),
    ];
    for (const e of entries) appendRequestLog(kysely, e);
    await flushRequestLog();
    const rows = await logRows(entries.map((e) => e.id));
    expect(rows.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...entries].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it("skips an entry whose row exists and writes the rest of the batch", async () => {
    const first = entry({ status: 201 });
    appendRequestLog(kysely, first);
    await flushRequestLog();
    const again = { ...first, status: 500 };
    const next = entry();
    appendRequestLog(kysely, again);
    appendRequestLog(kysely, next);
    await flushRequestLog();
    const rows = await logRows([first.id, next.id]);
    expect(rows.map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [first.id, 201],
        [next.id, 200],
      ].sort(),
    );
  });
});
