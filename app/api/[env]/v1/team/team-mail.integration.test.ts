/**
 * The team's mail, against the run's real SMTP server (lib/testing/mail.ts) and the real job
 * worker: the invitation link emailed to the invited address, and the owners' notice of a role
 * change; without mail the invitation link is only in the answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import { randomToken } from "@/lib/ids";
import { addMember, makeWorkspace, sessionHeaders } from "@/lib/testing/factories";
import { startJobWorkerForTests, waitFor } from "@/lib/testing/jobs";
import { linkIn, mailsTo, tokenOf, waitForMail } from "@/lib/testing/mail";
import { bearer, call } from "@/lib/testing/router";

startJobWorkerForTests();

const SMTP_URL = process.env.SMTP_URL!;
const PUBLIC_URL = process.env.PUBLIC_URL!;

function newEmail(): string {
  return `invitee-${randomToken(10).toLowerCase()}@example.test`;
}

afterEach(() => {
  process.env.SMTP_URL = SMTP_URL;
});

describe("invitation mail", () => {
  it("emails the single-use link to the invited address", async () => {
    const ws = await makeWorkspace("Mail Works");
    const email = newEmail();
    const res = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: await sessionHeaders(ws.userId),
      body: { email: email.toUpperCase(), role: "developer" },
    });
    expect(res.status).toBe(201);
    expect(res.body.emailed).toBe(true);

    const mail = await waitForMail(email);
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toBe("Join Mail Works on the Identity verification broker");
    expect(mail.text).toContain(`${ws.email} invited you to join the workspace "Mail Works" as a developer.`);
    const link = linkIn(mail, `${PUBLIC_URL}/invite/`);
    expect(link).toBe(res.body.url);
    // the link works
    const lookup = await call("POST", "/api/sandbox/v1/invitations/lookup", {
      body: { token: tokenOf(link) },
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ workspaceName: "Mail Works", email, role: "developer" });
  });

  it("sends nothing without mail: the link is only in the answer", async () => {
    delete process.env.SMTP_URL;
    const ws = await makeWorkspace();
    const email = newEmail();
    const res = await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: bearer(ws.keys.sandbox),
      body: { email, role: "viewer" },
    });
    expect(res.status).toBe(201);
    expect(res.body.emailed).toBe(false);
    expect(res.body.url).toMatch(new RegExp(`^${PUBLIC_URL}/invite/[A-Za-z0-9]{43}$`));
    // a later mail to another address arrives, this one never did
    process.env.SMTP_URL = SMTP_URL;
    const later = newEmail();
    await call("POST", "/api/sandbox/v1/team/invitations", {
      headers: bearer(ws.keys.sandbox),
      body: { email: later, role: "viewer" },
    });
    await waitForMail(later);
    expect(mailsTo(email)).toEqual([]);
  });
});

describe("role-change notice", () => {
  it("tells every other owner who changed whose role", async () => {
    const ws = await makeWorkspace("Notice Co");
    const coOwner = await addMember(ws.workspaceId, "owner");
    const admin = await addMember(ws.workspaceId, "admin");
    const dev = await addMember(ws.workspaceId, "developer");

    const res = await call("PATCH", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(admin.userId),
      body: { role: "viewer" },
    });
    expect(res.status).toBe(200);

    for (const owner of [ws.email, coOwner.email]) {
      const mail = await waitForMail(owner);
      expect(mail.to).toEqual([owner]);
      expect(mail.subject).toBe(`Role changed in Notice Co: ${dev.email} is now a viewer`);
      expect(mail.text).toContain(
        `${admin.email} changed the role of ${dev.email} in the workspace "Notice Co" from developer to viewer.`,
      );
      expect(linkIn(mail, `${PUBLIC_URL}/console/`)).toBe(`${PUBLIC_URL}/console/sandbox/team`);
    }
    expect(mailsTo(admin.email)).toEqual([]);
    expect(mailsTo(dev.email)).toEqual([]);

    // the owner who makes a change is not told about it; the other owner is
    await call("PATCH", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(ws.userId),
      body: { role: "admin" },
    });
    const second = await waitForMail(coOwner.email, 2);
    expect(second.text).toContain(`${ws.email} changed the role of ${dev.email}`);
    // a role set to what it was changes nothing and tells nobody
    await call("PATCH", `/api/sandbox/v1/team/members/${dev.userId}`, {
      headers: await sessionHeaders(ws.userId),
      body: { role: "admin" },
    });
    await waitFor(async () => mailsTo(coOwner.email).length === 2);
    expect(mailsTo(ws.email)).toHaveLength(1);
  });
});
