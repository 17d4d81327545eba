"use client";
/**
 * Invitations: a single-use link per invited email, shown once, and emailed to the address when the
 * service sends mail (`emailed`; otherwise the inviter passes it on), and the pending ones with
 * their revocation.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useId, useState } from "react";
import { SecretOnce, SecretShown, useSecretFocus } from "@/components/apps/secret-once";
import { api } from "@/components/console/api";
import { useConsole, type TRole } from "@/components/console/context";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import type { TPage } from "@/lib/http/pagination";
import { useItemAction } from "@/components/console/item-action";
import { formatDate, formatDateTime } from "@/components/verifications/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, Input } from "@/components/ui/field";
import { useFieldErrors } from "@/components/ui/field-errors";
import { Loading } from "@/components/ui/spinner";
import { ActionsTh, PagedTable, Td, Th } from "@/components/ui/table";
import { TeamError, teamMessage, TeamQueryError } from "./messages";
import { teamKeys, type TCreatedInvitation, type TInvitation } from "./queries";
import { grantableRoles, ROLE_LABEL, RolePicker, withArticle } from "./roles";

const LIMIT = 100;

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { env, workspace, permissions } = useConsole();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TRole>("viewer");
  const emailId = useId();
  const mutation = useMutation({
    mutationFn: () =>
      api<TCreatedInvitation>(env, "/v1/team/invitations", { method: "POST", body: { email, role } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.invitations(workspace.id) }),
  });
  const linkRef = useSecretFocus({ open, fieldId: emailId, shown: mutation.data });
  const close = () => {
    // the link leaves memory with the dialog
    mutation.reset();
    setEmail("");
    setRole("viewer");
    onClose();
  };
  const created = mutation.data;
  const fieldErrors = useFieldErrors(mutation.error);
  const fieldError = fieldErrors.names("email", "role");
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? "Invitation link" : "Invite member"}
      description={
        created ? undefined : (
          <>
            You get a single-use link, also emailed to the address when this service sends mail. Whoever opens
            it joins {workspace.name} with the role you choose.
          </>
        )
      }
    >
      {created ? (
        <SecretShown ref={linkRef} onDone={close}>
          {created.emailed ? (
            <p
              role="status"
              className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
            >
              We emailed the link to <span className="font-semibold break-all">{created.email}</span>.
            </p>
          ) : null}
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
            explanation={
              created.emailed
                ? `No need to send it yourself; if you do, send it privately: anyone who has it can join as ${withArticle(created.role)}. Revoke it below if it reached the wrong person.`
                : `This service sends no mail: send it to ${created.email} privately (a direct message, not a shared channel): anyone who has it can join as ${withArticle(created.role)}. Revoke it below if it reached the wrong person.`
            }
          />
        </SecretShown>
      ) : (
        <Form className="space-y-4" onSubmit={() => mutation.mutate()}>
          <Input
            id={emailId}
            label="Email"
            type="email"
            required
            autoComplete="off"
            maxLength={254}
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              fieldErrors.changed("email");
            }}
            error={fieldErrors.message("email", { label: "Email", kind: "email" })}
            description="The invitation works for this address only."
          />
          <RolePicker
            value={role}
            onChange={(r) => {
              setRole(r);
              fieldErrors.changed("role");
            }}
            roles={grantableRoles(permissions.team_owner)}
            error={fieldErrors.message("role", { label: "Role", kind: "choice" })}
          />
          <TeamError message={mutation.error && !fieldError ? teamMessage(mutation.error) : null} />
          <DialogActions onCancel={close}>
            <Button type="submit" pending={mutation.isPending}>
              Create invitation link
            </Button>
          </DialogActions>
        </Form>
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
  const { mutation, close } = useItemAction({
    action: (inv: TInvitation) =>
      api<{ revoked: true }>(env, `/v1/team/invitations/${encodeURIComponent(inv.invitationId)}`, {
        method: "DELETE",
      }),
    refresh: teamKeys.all(workspace.id),
    toast: (inv) => `The invitation for ${inv.email} was revoked`,
    onClose,
  });
  return (
    <ConfirmDialog
      subject={invitation}
      onClose={close}
      title={`Revoke the invitation for ${invitation?.email ?? "this address"}?`}
      description="Its link stops working at once. You can invite the address again later."
      error={<TeamError message={mutation.error ? teamMessage(mutation.error) : null} />}
      confirmLabel="Revoke"
      pending={mutation.isPending}
      onConfirm={(item) => mutation.mutate(item)}
    />
  );
}

export function InvitationsSection() {
  const { env, workspace, permissions } = useConsole();
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<TInvitation | null>(null);
  const { query, paging } = usePagedList({
    limit: LIMIT,
    queryKey: (page) => teamKeys.invitationPage(workspace.id, page),
    queryFn: pageFetcher<TPage<TInvitation>>(env, "/v1/team/invitations"),
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
        <TeamQueryError error={query.error} onRetry={() => query.refetch()} />
      ) : query.data.total === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white px-4 py-3 text-sm text-gray-700">
          No pending invitations.
        </p>
      ) : (
        <PagedTable
          caption="Pending invitations"
          head={
            <>
              <Th>Email</Th>
              <Th>Role</Th>
              <Th>Invited</Th>
              <Th>Expires</Th>
              {permissions.team ? <ActionsTh /> : null}
            </>
          }
          page={query.data}
          row={(inv) => (
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
          )}
          {...paging}
          pagesLabel="Invitations pages"
        />
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
