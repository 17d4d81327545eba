"use client";
/** The Team page: members and their roles, pending invitations, and what each role may do. */
import { useConsole } from "@/components/console/context";
import { Card } from "@/components/ui/card";
import { InvitationsSection } from "./invitations";
import { MembersSection } from "./members";
import { RoleGuide, withArticle } from "./roles";

export function TeamPage() {
  const { workspace, role } = useConsole();
  return (
    <div className="space-y-8">
      <div className="max-w-2xl space-y-1">
        <h1 className="text-2xl font-semibold">Team</h1>
        <p className="text-sm text-gray-700">
          The people of <strong className="font-semibold">{workspace.name}</strong>, in both environments. You
          are {withArticle(role)}.
        </p>
      </div>
      <MembersSection />
      <InvitationsSection />
      <Card title="Roles">
        <RoleGuide />
      </Card>
    </div>
  );
}
