/**
 * Reading a verification session: the app's own session (another app's is 404, never 403), its
 * status record (no personal data), and once it completed its userinfo and evidence.
 * Rules:
 * - the status record has acr and service_loa only when completed, and a reason for the other
 *   ends (failed, cancelled, expired);
 * - userinfo and evidence exist only for a completed session: 409 VERIFICATION_NOT_COMPLETED
 *   before, 410 VERIFICATION_DATA_DELETED once the retention period wiped them.
 */
import { defineAppRowRead, type AppAuth } from "../auth/app-credentials";
import type { Db } from "../db/client";
import type { Verification } from "../db/rows";
import { fromEpochMs, fromEpochMsOrNull } from "../db/timestamps";
import type { TEnvironment } from "../environments";
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
import { readVerification } from "./store/session";
import { statusRowById } from "./store/status";

const parseUserinfo = jsonParser(ZUserinfoJson, "verifications.result_encrypted");
const parseEvidence = jsonParser(ZEvidenceJson, "verifications.evidence_encrypted");

/** The end-user's page of a session. */
export function hostedPageUrl(verificationId: string): string {
  return `${publicUrl()}/verify/${verificationId}`;
}

/** What the status record is made of. */
export type TStatusRow = Pick<
  Verification,
  | "id"
  | "status"
  | "providerId"
  | "workflowId"
  | "flowType"
  | "createdAt"
  | "expiresAt"
  | "verifiedAt"
  | "loa"
  | "statusReason"
>;

export function toStatusRecord(v: TStatusRow): TVerificationStatus {
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
  db: Db,
  auth: AppAuth,
  verificationId: string,
): Promise<Verification> {
  const v = await readVerification(db, verificationId);
  if (!v || v.appId !== auth.clientId || v.environment !== auth.environment)
    throw notFound(`Verification "${verificationId}"`);
  return v;
}

/**
 * The columns of the status record and the owner's, by id: read in the app credential's own
 * statement (GET /v1/verifications/{id}, polled: withApi's `authWith`), one round trip for
 * authentication and the row; ownedVerificationStatus checks the owner.
 */
export const statusRowWithCredential = defineAppRowRead({
  name: "verification_status_with_credential",
  param: "verificationId",
  row: statusRowById,
  parse: ({ createdAtMs, expiresAtMs, verifiedAtMs, ...row }): TOwnedStatusRow => ({
    ...row,
    createdAt: fromEpochMs(createdAtMs),
    expiresAt: fromEpochMs(expiresAtMs),
    verifiedAt: fromEpochMsOrNull(verifiedAtMs),
  }),
});

type TOwnedStatusRow = TStatusRow & { appId: string; environment: TEnvironment };

/**
 * The status record of the app's session from its row read with the credential (null: none),
 * or 404 as getOwnedVerification (another app's, another environment's, or unknown).
 */
export function ownedVerificationStatus(
  auth: AppAuth,
  verificationId: string,
  v: TOwnedStatusRow | null,
): TVerificationStatus {
  if (!v || v.appId !== auth.clientId || v.environment !== auth.environment)
    throw notFound(`Verification "${verificationId}"`);
  return toStatusRecord(v);
}

function requireCompleted(v: Pick<Verification, "id" | "status" | "personalDataDeletedAt">): void {
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

/** What the userinfo is read from (the OP's /userinfo reads just these columns). */
export type TUserinfoRow = Pick<Verification, "id" | "status" | "personalDataDeletedAt" | "resultEncrypted">;

export function readUserinfo(v: TUserinfoRow): TUserinfo {
  requireCompleted(v);
  const userinfo = unseal(v.resultEncrypted, parseUserinfo);
  if (!userinfo) throw new Error(`Verification "${v.id}" is completed but has no sealed userinfo`);
  return userinfo;
}

export function readEvidence(v: Verification): TEvidence {
  requireCompleted(v);
  return unseal(v.evidenceEncrypted, parseEvidence) ?? { token: {}, names: "" };
}
