/** One request-log row as the writer (writer.ts) buffers it and its store writes it. */
import type { TEnvironment } from "../environments";
import type { TCredentialType } from "./credential-types";

export interface RequestLogEntry {
  id: string;
  workspaceId: string | null;
  environment: TEnvironment;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  errorCode: string | null;
  credentialType: TCredentialType;
  credentialId: string | null;
  credentialName: string | null;
  appId: string | null;
  verificationId: string | null;
  createdAt: Date;
}
