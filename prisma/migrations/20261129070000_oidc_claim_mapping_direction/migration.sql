-- Issue 24 (section 1): the claimMapping of an oidc connection now maps the claim name of the
-- upstream (or a JSON pointer into its claims) to an OIDC claim name, {"prenom": "given_name"},
-- as the issue specifies. Connections stored before had the reverse (OIDC claim to upstream
-- name). Turn every stored oidc mapping around. Two OIDC claims read from the same upstream name
-- (possible before, not expressible now) keep one of them. No other data changes.
UPDATE "provider_connections"
SET "settings" = jsonb_set(
        "settings",
        '{claimMapping}',
        (
            SELECT COALESCE(jsonb_object_agg(entry.value #>> '{}', entry.key), '{}'::jsonb)
            FROM jsonb_each("settings" -> 'claimMapping') AS entry
            WHERE jsonb_typeof(entry.value) = 'string'
        )
    )
WHERE "adapter" = 'oidc'
  AND jsonb_typeof("settings" -> 'claimMapping') = 'object';
