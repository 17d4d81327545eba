/**
 * The identifier a push provider needs to find the person's app (push flow).
 * Rules:
 * - each push provider asks for the identifier its real service uses (Smart-ID: the Estonian
 *   personal code; MitID: the user ID; Aadhaar: the 12-digit number; the others: a mobile number
 *   in international form);
 * - spaces and dashes are ignored; anything else that does not fit is refused with the field named;
 * - the identifier is personal data: it travels only in a POST body, never in a URL, and is kept
 *   sealed on the session until it ends.
 */
export type TIdentifierKind = "personal_number" | "phone_number" | "user_id" | "aadhaar";

export interface TPushIdentifier {
  kind: TIdentifierKind;
  example: string;
  /** the server-side check on the normalized value (whole value) */
  pattern: string;
  /** the HTML `pattern`: the same, tolerating the spaces and dashes people type */
  inputPattern: string;
  inputMode: "numeric" | "tel" | "text";
  autoComplete: "tel" | "username" | "off";
}

const IDENTIFIERS: Record<TIdentifierKind, TPushIdentifier> = {
  personal_number: {
    kind: "personal_number",
    example: "39001010005",
    pattern: "[1-6][0-9]{10}",
    inputPattern: "[1-6][0-9 \\-]{10,16}",
    inputMode: "numeric",
    autoComplete: "off",
  },
  phone_number: {
    kind: "phone_number",
    example: "+4915112345678",
    pattern: "\\+[1-9][0-9]{7,14}",
    inputPattern: "\\+[1-9][0-9 \\-]{7,24}",
    inputMode: "tel",
    autoComplete: "tel",
  },
  user_id: {
    kind: "user_id",
    example: "anna.jensen",
    pattern: "[A-Za-z0-9._\\-]{4,40}",
    inputPattern: "[A-Za-z0-9._\\-]{4,40}",
    inputMode: "text",
    autoComplete: "username",
  },
  aadhaar: {
    kind: "aadhaar",
    example: "234567890123",
    pattern: "[2-9][0-9]{11}",
    inputPattern: "[2-9][0-9 \\-]{11,18}",
    inputMode: "numeric",
    autoComplete: "off",
  },
};

const BY_PROVIDER: Record<string, TIdentifierKind> = {
  ee_smart_id: "personal_number",
  dk_mitid: "user_id",
  in_aadhaar_match: "aadhaar",
};

export function pushIdentifierFor(providerId: string): TPushIdentifier {
  return IDENTIFIERS[BY_PROVIDER[providerId] ?? "phone_number"];
}

/** The normalized identifier, or null when it does not fit the provider's format. */
export function validatePushIdentifier(providerId: string, raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const spec = pushIdentifierFor(providerId);
  const value = spec.kind === "user_id" ? raw.trim() : raw.replace(/[\s-]/g, "");
  return new RegExp(`^(?:${spec.pattern})$`).test(value) ? value : null;
}
