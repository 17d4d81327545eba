/** One audit entry as its writers give it (lib/audit/index.ts has the rules). */
import type { TActor } from "../auth/actor";
import type { TEnvironment } from "../environments";

export interface AuditEntry {
  actor: TActor;
  workspaceId?: string | null;
  environment?: TEnvironment | null;
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Record<string, unknown>;
  requestId?: string;
}
