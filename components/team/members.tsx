"use client";
/**
 * The workspace's members: role changes (owner role only for owners), removing someone, leaving.
 * The server has the last word: a workspace keeps at least one owner (409 LAST_OWNER), and its
 * message is shown where the change was asked for.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LogOut } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/console/api";
import { signOut } from "@/components/console/auth-client";
import { useConsole, type TRole } from "@/components/console/context";
import { pageFetcher, usePagedList } from "@/components/console/paged-list";
import type { TPage } from "@/lib/http/pagination";
import { isRole } from "@/lib/auth/roles";
import { formatDate, formatDateTime } from "@/components/verifications/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Form, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { ActionsTh, PagedTable, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { TeamError, teamMessage, TeamQueryError } from "./messages";
import { teamKeys, type TMember } from "./queries";
import { grantableRoles, ROLE_DESCRIPTIONS, ROLE_LABEL } from "./roles";

const LIMIT = 100;

function RoleCell({ member }: { member: TMember }) {
  const { env, workspace, permissions } = useConsole();
  const queryClient = useQueryClient();
  const router = useRouter();
  const toast = useToast();
  const [selected, setSelected] = useState<TRole>(member.role);
  const mutation = useMutation({
    mutationFn: (role: TRole) =>
      api<TMember>(env, `/v1/team/members/${encodeURIComponent(member.userId)}`, {
        method: "PATCH",
        body: { role },
      }),
    onSuccess: async (updated) => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.members(workspace.id) });
      setSelected(updated.role);
      toast.show({ message: `${member.email} is now ${ROLE_LABEL[updated.role].toLowerCase()}` });
      // your own role changed: the console's permissions come from the server
      if (member.isYou) router.refresh();
    },
  });
  // an admin may not touch an owner's role; nobody without `team` may change roles
  const editable = permissions.team && (member.role !== "owner" || permissions.team_owner);
  if (!editable)
    return <Badge tone={member.role === "owner" ? "purple" : "gray"}>{ROLE_LABEL[member.role]}</Badge>;
  const dirty = selected !== member.role;
  const cancel = () => {
    setSelected(member.role);
    mutation.reset();
  };
  return (
    <Form className="min-w-[11rem] space-y-1" onSubmit={() => mutation.mutate(selected)}>
      <Select
        label={<span className="sr-only">Role of {member.email}</span>}
        value={selected}
        onChange={(e) => {
          mutation.reset();
          if (isRole(e.target.value)) setSelected(e.target.value);
        }}
        description={dirty ? ROLE_DESCRIPTIONS[selected] : undefined}
        fieldClassName="max-w-[14rem]"
      >
        {grantableRoles(permissions.team_owner).map((role) => (
          <option key={role} value={role}>
            {ROLE_LABEL[role]}
          </option>
        ))}
      </Select>
      {dirty ? (
        <div className="flex gap-2">
          <Button type="submit" size="sm" pending={mutation.isPending}>
            Save
          </Button>
          <Button variant="ghost" size="sm" onClick={cancel}>
            Cancel
          </Button>
        </div>
      ) : null}
      {mutation.error ? (
        <p role="alert" className="max-w-[16rem] text-sm font-medium text-red-700">
          {teamMessage(mutation.error)}
        </p>
      ) : null}
    </Form>
  );
}

function RemoveDialog({ member, onClose }: { member: TMember | null; onClose: () => void }) {
  const { env, workspace, memberships } = useConsole();
  const queryClient = useQueryClient();
  const router = useRouter();
  const toast = useToast();
  const leaving = member?.isYou ?? false;
  const mutation = useMutation({
    mutationFn: (m: TMember) =>
      api<{ removed: true }>(env, `/v1/team/members/${encodeURIComponent(m.userId)}`, { method: "DELETE" }),
    onSuccess: async (_, m) => {
      if (m.isYou) {
        // this workspace is gone for you: another one of yours, or the sign-in page
        if (memberships.length > 1) {
          router.push(`/console/${env}/dashboard`);
          router.refresh();
        } else await signOut("/");
        return;
      }
      await queryClient.invalidateQueries({ queryKey: teamKeys.members(workspace.id) });
      toast.show({ message: `${m.email} was removed from ${workspace.name}` });
      close();
    },
  });
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      subject={member}
      onClose={close}
      title={leaving ? `Leave ${workspace.name}?` : `Remove ${member?.email ?? "member"}?`}
      description={
        leaving
          ? "You lose access to this workspace at once. To come back, you need a new invitation. API keys you created keep working until someone revokes them."
          : "They lose access to this workspace at once, their open console sessions included. API keys they created keep working until revoked."
      }
      error={<TeamError message={mutation.error ? teamMessage(mutation.error) : null} />}
      confirmLabel={leaving ? "Leave workspace" : "Remove"}
      pending={mutation.isPending}
      onConfirm={(item) => mutation.mutate(item)}
    />
  );
}

export function MembersSection() {
  const { env, workspace, permissions } = useConsole();
  const [removing, setRemoving] = useState<TMember | null>(null);
  const { query, paging } = usePagedList({
    limit: LIMIT,
    queryKey: (page) => teamKeys.memberPage(workspace.id, page),
    queryFn: pageFetcher<TPage<TMember>>(env, "/v1/team/members"),
  });
  return (
    <section className="space-y-3">
      <div>
        <h2 className="text-lg font-semibold">Members</h2>
        <p className="text-sm text-gray-700">
          {permissions.team
            ? permissions.team_owner
              ? "Change roles or remove members. The workspace always keeps at least one owner."
              : "Change roles or remove members. Only owners can grant or take the owner role."
            : "Only owners and admins can change roles or remove members. You can leave the workspace."}
        </p>
      </div>
      {query.isPending ? (
        <Loading label="Loading members" />
      ) : query.isError ? (
        <TeamQueryError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <PagedTable
          caption="Members"
          head={
            <>
              <Th>Member</Th>
              <Th>Role</Th>
              <Th>Joined</Th>
              <Th>Last sign-in</Th>
              <ActionsTh />
            </>
          }
          page={query.data}
          row={(member) => {
            const removable =
              permissions.team && !member.isYou && (member.role !== "owner" || permissions.team_owner);
            return (
              <tr key={member.userId}>
                <Td className="min-w-[12rem]">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold break-all">{member.name ?? member.email}</span>
                    {member.isYou ? <Badge tone="blue">You</Badge> : null}
                  </div>
                  {member.name ? <div className="text-gray-700 break-all">{member.email}</div> : null}
                </Td>
                {/* relative: keeps the select's visually hidden label inside the scrolling table */}
                <Td className="relative">
                  {/* keyed by role: a change made elsewhere resets the picker */}
                  <RoleCell key={member.role} member={member} />
                </Td>
                <Td className="whitespace-nowrap">
                  <time dateTime={member.joinedAt}>{formatDate(member.joinedAt)}</time>
                </Td>
                <Td className="whitespace-nowrap">
                  {member.lastSignInAt ? (
                    <time dateTime={member.lastSignInAt}>{formatDateTime(member.lastSignInAt)}</time>
                  ) : (
                    "Never"
                  )}
                </Td>
                <Td className="text-right">
                  {member.isYou ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      className="whitespace-nowrap"
                      icon={<LogOut aria-hidden className="h-4 w-4" />}
                      onClick={() => setRemoving(member)}
                    >
                      Leave workspace
                    </Button>
                  ) : removable ? (
                    <Button variant="secondary" size="sm" onClick={() => setRemoving(member)}>
                      Remove
                    </Button>
                  ) : null}
                </Td>
              </tr>
            );
          }}
          {...paging}
          pagesLabel="Members pages"
        />
      )}
      <RemoveDialog member={removing} onClose={() => setRemoving(null)} />
    </section>
  );
}
