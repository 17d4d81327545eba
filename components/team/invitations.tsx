"use client";
/**
 * Invitations: a single-use link per invited email, shown once (there is no email delivery: the
 * inviter passes it on), and the pending ones with their revocation.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { SecretOnce } from "@/components/apps/secret-once";
import { api, ApiRequestError } from "@/components/console/api";
import { useConsole, type TRole } from "@/components/console/context";
import { formatDate, formatDateTime } from "@/components/verifications/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { Loading } from "@/components/ui/spinner";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { TeamError, teamMessage } from "./messages";
import { teamKeys, type TCreatedInvitation, type TInvitation, type TListPage } from "./queries";
import { grantableRoles, ROLE_LABEL, RolePicker, withArticle } from "./roles";

const LIMIT = 100;

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { env, workspace, permissions } = useConsole();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TRole>("viewer");
  const emailId = useId();
  const linkRef = useRef<HTMLDivElement>(null);
  const mutation = useMutation({
    mutationFn: () =>
      api<TCreatedInvitation>(env, "/v1/team/invitations", { method: "POST", body: { email, role } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations(workspace.id) }),
  });
  // after the dialog opened (its effect runs first): into the field; once the link is shown,
  // to its copy button (the submit button that had focus is gone)
  useEffect(() => {
    if (open) document.getElementById(emailId)?.focus();
  }, [open, emailId]);
  useEffect(() => {
    if (mutation.data) linkRef.current?.querySelector("button")?.focus();
  }, [mutation.data]);
  const close = () => {
    // the link leaves memory with the dialog
    mutation.reset();
    setEmail("");
    setRole("viewer");
    onClose();
  };
  const created = mutation.data;
  const error = mutation.error instanceof ApiRequestError ? mutation.error : undefined;
  const fieldError = error?.fieldError("email") ?? error?.fieldError("role");
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? "Invitation link" : "Invite member"}
      description={
        created ? undefined : (
          <>
            You get a link to send yourself: no email is sent. Whoever opens it joins {workspace.name} with
            the role you choose.
          </>
        )
      }
    >
      {created ? (
        <div className="space-y-4" ref={linkRef}>
          <p className="text-sm text-gray-800">
            <span className="font-semibold break-all">{created.email}</span> joins as{" "}
            {withArticle(created.role)} with this link. It works once and expires on{" "}
            <time dateTime={created.expiresAt} className="font-semibold">
              {formatDateTime(created.expiresAt)}
            </time>
            .
          </p>
          <SecretOnce
            label="Link"
            value={created.url}
            explanation={`Send it to ${created.email} privately (a direct message, not a shared channel): anyone who has it can join as ${withArticle(created.role)}. Revoke it below if it reached the wrong person.`}
          />
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            mutation.mutate();
          }}
        >
          <Input
            id={emailId}
            label="Email"
            type="email"
            required
            autoComplete="off"
            maxLength={254}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={error?.fieldError("email")}
            description="The invitation works for this address only."
          />
          <RolePicker
            value={role}
            onChange={setRole}
            roles={grantableRoles(permissions.team_owner)}
            error={error?.fieldError("role")}
          />
          <TeamError message={mutation.error && !fieldError ? teamMessage(mutation.error) : null} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" pending={mutation.isPending}>
              Create invitation link
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function RevokeInvitationDialog({
  invitation,
  onClose,
}: {
  invitation: TInvitation | null;
  onClose: () => void;
}) {
  const { env, workspace } = useConsole();
  const queryClient = useQueryClient();
  const toast = useToast();
  const mutation = useMutation({
    mutationFn: (inv: TInvitation) =>
      api<{ revoked: true }>(env, `/v1/team/invitations/${encodeURIComponent(inv.invitationId)}`, {
        method: "DELETE",
      }),
    onSuccess: async (_, inv) => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.all(workspace.id) });
      toast.show({ message: `The invitation for ${inv.email} was revoked` });
      close();
    },
  });
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Dialog
      open={invitation !== null}
      onClose={close}
      title={`Revoke the invitation for ${invitation?.email ?? "this address"}?`}
      description="Its link stops working at once. You can invite the address again later."
    >
      <div className="space-y-3">
        <TeamError message={mutation.error ? teamMessage(mutation.error) : null} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            pending={mutation.isPending}
            onClick={() => (invitation ? mutation.mutate(invitation) : undefined)}
          >
            Revoke
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

export function InvitationsSection() {
  const { env, workspace, permissions } = useConsole();
  const [offset, setOffset] = useState(0);
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<TInvitation | null>(null);
  const query = useQuery({
    queryKey: teamKeys.invitationPage(workspace.id, { offset, limit: LIMIT }),
    queryFn: ({ signal }) =>
      api<TListPage<TInvitation>>(env, "/v1/team/invitations", { query: { limit: LIMIT, offset }, signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="max-w-2xl">
          <h2 className="text-lg font-semibold">Pending invitations</h2>
          <p className="text-sm text-gray-700">
            {permissions.team
              ? "Invite someone with a single-use link, valid for 7 days. The link is shown once: revoke it here if it is lost or went to the wrong person."
              : "Only owners and admins can invite members."}
          </p>
        </div>
        {permissions.team ? (
          <Button icon={<UserPlus aria-hidden className="h-4 w-4" />} onClick={() => setInviting(true)}>
            Invite member
          </Button>
        ) : null}
      </div>
      {query.isPending ? (
        <Loading label="Loading invitations" />
      ) : query.isError ? (
        <div className="space-y-2">
          <TeamError message={teamMessage(query.error)} />
          <Button variant="secondary" onClick={() => query.refetch()}>
            Try again
          </Button>
        </div>
      ) : query.data.total === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white px-4 py-3 text-sm text-gray-700">
          No pending invitations.
        </p>
      ) : (
        <>
          <Table caption="Pending invitations">
            <thead>
              <tr>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Invited</Th>
                <Th>Expires</Th>
                {permissions.team ? (
                  <Th className="relative">
                    <span className="sr-only">Actions</span>
                  </Th>
                ) : null}
              </tr>
            </thead>
            <TBody>
              {query.data.data.map((inv) => (
                <tr key={inv.invitationId}>
                  <Td className="min-w-[12rem] font-semibold break-all">{inv.email}</Td>
                  <Td>
                    <Badge tone={inv.role === "owner" ? "purple" : "gray"}>{ROLE_LABEL[inv.role]}</Badge>
                  </Td>
                  <Td className="min-w-[10rem]">
                    <time dateTime={inv.createdAt} className="whitespace-nowrap">
                      {formatDate(inv.createdAt)}
                    </time>
                    {inv.createdBy ? (
                      <div className="text-gray-700 break-all">by {inv.createdBy.email}</div>
                    ) : null}
                  </Td>
                  <Td className="whitespace-nowrap">
                    <time dateTime={inv.expiresAt}>{formatDateTime(inv.expiresAt)}</time>
                  </Td>
                  {permissions.team ? (
                    <Td className="text-right">
                      <Button variant="secondary" size="sm" onClick={() => setRevoking(inv)}>
                        Revoke
                      </Button>
                    </Td>
                  ) : null}
                </tr>
              ))}
            </TBody>
          </Table>
          <Pagination
            total={query.data.total}
            limit={LIMIT}
            offset={offset}
            onChange={setOffset}
            label="Invitations pages"
          />
        </>
      )}
      {permissions.team ? (
        <>
          <InviteDialog open={inviting} onClose={() => setInviting(false)} />
          <RevokeInvitationDialog invitation={revoking} onClose={() => setRevoking(null)} />
        </>
      ) : null}
    </section>
  );
}
