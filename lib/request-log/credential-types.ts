/**
 * The kinds of credential a logged request was made with (`api_request_logs.credential_type`):
 * written by the request log's writer, filtered on and shown by its endpoint.
 */
import { memberParser } from "../state-machine";

export const CREDENTIAL_TYPES = ["api_key", "app", "session", "operator", "none"] as const;
export type TCredentialType = (typeof CREDENTIAL_TYPES)[number];
/** `api_request_logs.credential_type` as read from its row. */
export const parseCredentialType = memberParser(CREDENTIAL_TYPES, "api_request_logs.credential_type");
