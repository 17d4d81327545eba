/** Parses an Authorization header into its scheme and credentials. */
export type ParsedAuthorization =
  | { scheme: "none" }
  | { scheme: "bearer"; token: string }
  | { scheme: "basic"; username: string; password: string }
  | { scheme: "malformed" };

export function parseAuthorization(header: string | null): ParsedAuthorization {
  if (header === null || header.trim() === "") return { scheme: "none" };
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return { scheme: "malformed" };
  const scheme = match[1]!.toLowerCase();
  const value = match[2]!;
  if (scheme === "bearer") return { scheme: "bearer", token: value };
  if (scheme === "basic") {
    let decoded: string;
    try {
      decoded = Buffer.from(value, "base64").toString("utf8");
    } catch {
      return { scheme: "malformed" };
    }
    const colon = decoded.indexOf(":");
    if (colon <= 0) return { scheme: "malformed" };
    // RFC 6749 §2.3.1: client id and secret are form-urlencoded inside Basic
    const safeDecode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        return s;
      }
    };
    return {
      scheme: "basic",
      username: safeDecode(decoded.slice(0, colon)),
      password: safeDecode(decoded.slice(colon + 1)),
    };
  }
  return { scheme: "malformed" };
}
