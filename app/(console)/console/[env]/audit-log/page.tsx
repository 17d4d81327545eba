import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLog } from "@/components/audit/audit-log";
import { Loading } from "@/components/ui/spinner";

export const metadata: Metadata = { title: "Audit log" };

export default function AuditLogPage() {
  return (
    <Suspense fallback={<Loading label="Loading the audit log" />}>
      <AuditLog />
    </Suspense>
  );
}
