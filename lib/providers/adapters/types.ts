/**
 * What every provider adapter produces, whatever its flow type (redirect, qr, push, dc) and
 * whether it is the sandbox simulator or a real upstream: an outcome, and on success the
 * identity the source vouched for. The verification service turns this into the session's
 * result; the workflow engine checks it.
 */

/** Per-field verdicts of a match provider (spec: match object). Keys are OIDC-normalized. */
export interface TMatchDetail {
  /** per_field only */
  matched?: boolean;
  submitted_value: unknown;
  /** 0–100, for name fields of per_field providers */
  similarity?: number;
  /** passthrough keys from the upstream verifier */
  [extra: string]: unknown;
}

export interface TMatchResult {
  /** aggregate outcome */
  matched: boolean;
  granularity: "per_field" | "aggregate";
  /** OIDC-normalized keys the caller submitted via matchData */
  submitted_fields: string[];
  details: Record<string, TMatchDetail>;
}

export interface TSourceIdentity {
  /** the upstream's own subject for the person; never exposed, only hashed into `sub` */
  upstreamSubject: string;
  /**
   * OIDC-normalized claims the source disclosed. For match providers: the verified subset of the
   * submitted matchData (per_field: fields with matched true; aggregate: all submitted fields
   * when the aggregate outcome is true, otherwise none) — never the register's own values.
   */
  claims: Record<string, unknown>;
  /** LoA the source reported; null → the provider's defaultLoa */
  loa: number | null;
  /** the upstream answer with its native keys (provenance credentials[].claims) */
  rawClaims: Record<string, unknown>;
  /** provider-supplied evidence key/values (the evidence `token`) */
  evidence: Record<string, string>;
  /** match providers only */
  match?: TMatchResult;
}

export type TAdapterOutcome =
  | { kind: "success"; identity: TSourceIdentity }
  /**
   * reason: machine-readable, e.g. authentication_failed, provider_error, access_denied.
   * origin "callback": the failure comes from what the end-user's browser brought back (an error
   * parameter, a foreign state, a code the upstream refuses as invalid_grant) — anyone can forge
   * that for their own session, so it never counts against the connection's health.
   */
  | { kind: "failure"; reason: string; message?: string; origin?: "callback" }
  | { kind: "cancelled" }
  | { kind: "expired" };
