import type { Metadata } from "next";
import { Suspense } from "react";
import { OperatorAuditLog } from "@/components/operator/audit/operator-audit-log";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Audit log" };

export default function OperatorAuditLogPage() {
  return (
    <Suspense fallback={<Loading label="Loading operator actions" />}>
      <OperatorAuditLog />
    </Suspense>
  );
}
