/**
 * An app's OpenID client settings in PATCH /v1/apps/{client_id} (issue 28): tokenEndpointAuthMethod,
 * jwks / jwksUri, requirePushedAuthorizationRequests, requireDpop, oidcProfile, and how they bind
 * one another. What the OP then enforces is lib/oidc/profile.ts `clientPolicy`.
 * Rules (each refusal a 400 VALIDATION_ERROR naming the field, lib/errors invalidField):
 * - jwks and jwksUri are checked as lib/apps/client-keys-check.ts says; null (or "" for
 *   jwksUri) removes one; an app has at most one of them: setting one while the other is stored
 *   is refused unless the same PATCH sets the other to null;
 * - private_key_jwt needs keys once the patch is applied: choosing it without keys is refused on
 *   tokenEndpointAuthMethod, removing the keys of such an app on the removed field;
 * - oidcProfile "fapi2" (the FAPI 2.0 Security Profile) needs private_key_jwt (already or in the
 *   same PATCH) and sets requirePushedAuthorizationRequests, requireDpop and pkceRequired to true
 *   in the same write; while it is fapi2, setting any of those to false, or a secret method, is
 *   refused ("must stay … while oidcProfile is fapi2"); switching back to "default" keeps them as
 *   they are.
 */
import type { TEnvironment } from "../environments";
import { invalidField } from "../errors";
import type { TClientOidcSettings } from "../oidc/profile";
import { checkJwkSet, checkJwksUri } from "./client-keys-check";
import type { TUpdateApp } from "./schema";
import type { TAppChanges } from "./store/writes";

export type TOidcSettingsChanges = Pick<
  TAppChanges,
  | "tokenEndpointAuthMethod"
  | "jwks"
  | "jwksUri"
  | "requirePushedAuthorizationRequests"
  | "requireDpop"
  | "oidcProfile"
  | "pkceRequired"
>;

/** The switches the FAPI 2.0 profile holds on. */
const FAPI2_SWITCHES = ["requirePushedAuthorizationRequests", "requireDpop", "pkceRequired"] as const;

/** Checks the OpenID client settings of `patch` against the app's `current` ones; the columns to write. */
export async function oidcSettingsChanges(
  current: TClientOidcSettings,
  patch: TUpdateApp,
  env: TEnvironment,
): Promise<TOidcSettingsChanges> {
  const data: TOidcSettingsChanges = {};

  if (patch.jwks !== undefined) {
    if (patch.jwks !== null) {
      const problem = await checkJwkSet(patch.jwks);
      if (problem) throw invalidField(problem.path, problem.message);
    }
    data.jwks = patch.jwks;
  }
  if (patch.jwksUri !== undefined) {
    const uri = patch.jwksUri === null || patch.jwksUri.trim() === "" ? null : patch.jwksUri;
    if (uri !== null) {
      const problem = checkJwksUri(uri, env);
      if (problem) throw invalidField("jwksUri", problem);
    }
    data.jwksUri = uri;
  }
  const jwks = data.jwks !== undefined ? data.jwks : current.jwks;
  const jwksUri = data.jwksUri !== undefined ? data.jwksUri : current.jwksUri;
  if (jwks != null && jwksUri != null) {
    if (data.jwks != null && data.jwksUri != null)
      throw invalidField("jwks", "cannot be set together with jwksUri: register one of them");
    const [field, other] = data.jwks != null ? ["jwks", "jwksUri"] : ["jwksUri", "jwks"];
    throw invalidField(
      field,
      `cannot be set while ${other} is set: send "${other}": null in the same request to replace it`,
    );
  }

  const method = patch.tokenEndpointAuthMethod ?? current.tokenEndpointAuthMethod;
  if (patch.tokenEndpointAuthMethod !== undefined)
    data.tokenEndpointAuthMethod = patch.tokenEndpointAuthMethod;
  const keysTouched =
    patch.tokenEndpointAuthMethod !== undefined || data.jwks !== undefined || data.jwksUri !== undefined;
  if (keysTouched && method === "private_key_jwt" && jwks == null && jwksUri == null) {
    if (patch.tokenEndpointAuthMethod !== undefined)
      throw invalidField(
        "tokenEndpointAuthMethod",
        "private_key_jwt needs jwks or jwksUri (already set or in the same request)",
      );
    throw invalidField(
      data.jwks === null ? "jwks" : "jwksUri",
      "cannot be removed while tokenEndpointAuthMethod is private_key_jwt: register other keys or change the method in the same request",
    );
  }

  for (const field of ["requirePushedAuthorizationRequests", "requireDpop"] as const) {
    if (patch[field] !== undefined) data[field] = patch[field];
  }
  if (patch.oidcProfile !== undefined) data.oidcProfile = patch.oidcProfile;
  const profile = patch.oidcProfile ?? current.oidcProfile;
  if (profile === "fapi2") {
    for (const field of FAPI2_SWITCHES) {
      if (patch[field] === false) throw invalidField(field, "must stay true while oidcProfile is fapi2");
    }
    if (method !== "private_key_jwt") {
      if (patch.tokenEndpointAuthMethod !== undefined)
        throw invalidField("tokenEndpointAuthMethod", "must stay private_key_jwt while oidcProfile is fapi2");
      throw invalidField(
        "oidcProfile",
        "fapi2 needs tokenEndpointAuthMethod private_key_jwt (already set or in the same request)",
      );
    }
    // the profile's switches are on, in this same write
    for (const field of FAPI2_SWITCHES) {
      if (!current[field] || patch[field] !== undefined) data[field] = true;
    }
  }
  return data;
}
