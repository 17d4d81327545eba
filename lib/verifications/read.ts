/**
 * Reading a verification session: the app's own session (another app's is 404, never 403), its
 * status record (no personal data), and once it completed its userinfo and evidence.
 * Rules:
 * - the status record has acr and service_loa only when completed, and a reason for the other
 *   ends (failed, cancelled, expired);
 * - userinfo and evidence exist only for a completed session: 409 VERIFICATION_NOT_COMPLETED
 *   before, 410 VERIFICATION_DATA_DELETED once the retention period wiped them.
 */
import type { AppAuth } from "../auth/app-credentials";
import type { Tx } from "../db/client";
import type { Verification } from "../db/generated/client";
import { ApiError, notFound } from "../errors";
import { jsonParser } from "../state-machine";
import {
  ZEvidenceJson,
  ZUserinfoJson,
  type TEvidence,
  type TUserinfo,
  type TVerificationStatus,
} from "./endpoints";
import { acrFor, loaLabel } from "./loa";
import { unseal } from "./personal-data";
import { publicUrl } from "../config";
import { parseVerificationState } from "./state-machine";

const parseUserinfo = jsonParser(ZUserinfoJson, "verifications.result_encrypted");
const parseEvidence = jsonParser(ZEvidenceJson, "verifications.evidence_encrypted");

/** The end-user's page of a session. */
export function hostedPageUrl(verificationId: string): string {
  return `${publicUrl()}/verify/${verificationId}`;
}

export function toStatusRecord(v: Verification): TVerificationStatus {
  const completed = v.status === "completed" && v.loa !== null;
  return {
    verificationId: v.id,
    status: parseVerificationState(v.status),
    providerId: v.providerId,
    workflowId: v.workflowId,
    flowType: v.flowType,
    createdAt: v.createdAt.toISOString(),
    expiresAt: v.expiresAt.toISOString(),
    ...(v.verifiedAt ? { verifiedAt: v.verifiedAt.toISOString() } : {}),
    ...(completed ? { acr: acrFor(v.loa!), service_loa: v.loa!, service_loa_label: loaLabel(v.loa!) } : {}),
    ...(v.statusReason && v.status !== "completed" ? { reason: v.statusReason } : {}),
  };
}

/** The app's session, or 404 (another app's, another environment's, or unknown). */
export async function getOwnedVerification(
  db: Tx,
  auth: AppAuth,
  verificationId: string,
): Promise<Verification> {
  const v = await db.verification.findUnique({ where: { id: verificationId } });
  if (!v || v.appId !== auth.clientId || v.environment !== auth.environment)
    throw notFound(`Verification "${verificationId}"`);
  return v;
}

function requireCompleted(v: Verification): void {
  if (v.status !== "completed") {
    throw new ApiError(
      "VERIFICATION_NOT_COMPLETED",
      `Verification "${v.id}" is ${v.status}; claims are available once it is completed`,
    );
  }
  if (v.personalDataDeletedAt) {
    throw new ApiError(
      "VERIFICATION_DATA_DELETED",
      `The personal data of verification "${v.id}" has been deleted (retention period passed)`,
    );
  }
}

export function readUserinfo(v: Verification): TUserinfo {
  requireCompleted(v);
  const userinfo = unseal(v.resultEncrypted, parseUserinfo);
  if (!userinfo) throw new Error(`Verification "${v.id}" is completed but has no sealed userinfo`);
  return userinfo;
}

export function readEvidence(v: Verification): TEvidence {
  requireCompleted(v);
  return unseal(v.evidenceEncrypted, parseEvidence) ?? { token: {}, names: "" };
}
