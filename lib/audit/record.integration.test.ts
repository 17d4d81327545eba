import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR, cliActor, userActor } from "../auth/actor";
import { kysely } from "../db/client";
import { newId } from "../ids";
import { makeWorkspace } from "../testing/factories";
import { operatorAudit, recordAudit, workspaceAudit } from "./index";
import { inTransaction } from "../db/kysely";

/** Records `entry` (its targetId new to the database) and reads its row back, without id and createdAt. */
async function write(entry: Parameters<typeof recordAudit>[1] & { targetId: string }) {
  await inTransaction(kysely(), (tx) => recordAudit(tx, entry));
  const {
    id: _id,
    createdAt: _createdAt,
    ...row
  } = await kysely()
    .selectFrom("auditEvents")
    .selectAll()
    .where("targetId", "=", entry.targetId)
    .executeTakeFirstOrThrow();
  return row;
}

describe("recordAudit", () => {
  it("writes the actor columns of each kind of actor", async () => {
    const ws = await makeWorkspace();
    const base = { action: "test.audited", targetType: "test" };
    const cases = [
      {
        entry: workspaceAudit({
          auth: {
            workspaceId: ws.workspaceId,
            environment: "sandbox",
            actor: { type: "api_key", id: "key_x", name: "k" },
          },
          requestId: "req_1",
        }),
        row: {
          workspaceId: ws.workspaceId,
          environment: "sandbox",
          actorType: "api_key",
          actorId: "key_x",
          requestId: "req_1",
        },
      },
      {
        entry: workspaceAudit({
          auth: {
            workspaceId: ws.workspaceId,
            environment: "production",
            actor: { type: "user", id: ws.userId, name: "u" },
          },
        }),
        row: {
          workspaceId: ws.workspaceId,
          environment: "production",
          actorType: "user",
          actorId: ws.userId,
          requestId: null,
        },
      },
      {
        entry: operatorAudit({ auth: { userId: "usr_operator" }, requestId: "req_2" }),
        row: {
          workspaceId: null,
          environment: null,
          actorType: "operator",
          actorId: "usr_operator",
          requestId: "req_2",
        },
      },
      {
        entry: { actor: userActor(ws.userId), workspaceId: ws.workspaceId },
        row: {
          workspaceId: ws.workspaceId,
          environment: null,
          actorType: "user",
          actorId: ws.userId,
          requestId: null,
        },
      },
      {
        entry: { actor: cliActor() },
        row: { workspaceId: null, environment: null, actorType: "cli", actorId: null, requestId: null },
      },
      {
        entry: { actor: SYSTEM_ACTOR, workspaceId: ws.workspaceId, environment: "sandbox" as const },
        row: {
          workspaceId: ws.workspaceId,
          environment: "sandbox",
          actorType: "system",
          actorId: null,
          requestId: null,
        },
      },
    ] as const;
    for (const { entry, row } of cases) {
      const targetId = newId("aud");
      expect(await write({ ...entry, ...base, targetId })).toEqual({
        ...row,
        action: "test.audited",
        targetType: "test",
        targetId,
        data: {},
      });
    }
  });

  it("stores the details as given", async () => {
    const targetId = newId("aud");
    const row = await write({
      actor: SYSTEM_ACTOR,
      action: "test.audited",
      targetId,
      data: { from: "a", to: "b" },
    });
    expect(row).toMatchObject({ targetType: null, data: { from: "a", to: "b" } });
  });
});
