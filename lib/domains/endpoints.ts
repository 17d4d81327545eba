/** Endpoint definitions of the custom domain resource (see lib/http/endpoint.ts). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { DOMAIN_STATUSES, REQUIRED_ACTIONS } from "./state-machine";

const ZHostInput = z
  .string({ error: "must be a string" })
  .max(253, "must be at most 253 characters")
  .describe("A host name only: no scheme, path, port or wildcard; not an IP address");

export const ZConfigureCustomDomain = z.strictObject({
  webDomain: ZHostInput.describe("Host of the hosted verification pages, e.g. verify.shop.example.com"),
  oidcDomain: ZHostInput.describe("Host of the OpenID Connect endpoints, e.g. auth.shop.example.com"),
});
export type TConfigureCustomDomain = z.infer<typeof ZConfigureCustomDomain>;

export const ZDnsRecordJson = z.object({
  id: z.string().describe("web-cname, oidc-cname or ownership-txt"),
  type: z.enum(["CNAME", "TXT"]),
  host: z.string().describe("Fully qualified name the record is set on"),
  name: z.string().describe("The same name relative to the base domain, as DNS providers' forms ask for it"),
  value: z.string(),
  required: z.boolean(),
  description: z.string(),
});

export const ZDnsCheckJson = z.object({
  id: z.string().describe("The record checked: web-cname, oidc-cname or ownership-txt (see dnsRecords)"),
  type: z.enum(["CNAME", "TXT"]),
  host: z.string(),
  result: z
    .enum(["found", "missing", "wrong", "lookup_failed"])
    .describe(
      "`found`: there with the expected value; `missing`: not there (yet); `wrong`: there with another value (see found); `lookup_failed`: DNS did not answer (timeout, SERVFAIL, refused), nothing is known",
    ),
  found: z
    .array(z.string())
    .describe(
      "What DNS holds at the name: the CNAME's target (first hop), the A/AAAA addresses where a CNAME belongs, or every TXT value; empty when nothing is there",
    ),
  message: z.string().describe("The result in words"),
});

export const ZCustomDomainJson = z.object({
  webDomain: z.string().nullable().describe("null while unconfigured"),
  oidcDomain: z.string().nullable().describe("null while unconfigured"),
  status: z.enum(DOMAIN_STATUSES),
  requiredAction: z.enum(REQUIRED_ACTIONS),
  statusMessage: z.string().optional().describe("Omitted when there is nothing to report"),
  dnsRecords: z.array(ZDnsRecordJson),
  lastCheckedAt: z
    .string()
    .optional()
    .describe("ISO 8601 of the latest check (verify or automatic); omitted until the first"),
  dnsChecks: z
    .array(ZDnsCheckJson)
    .optional()
    .describe(
      "Per-record results of the latest check, in the order of dnsRecords; omitted until the first check and when DNS was not asked (contact_support)",
    ),
  automaticChecks: z
    .enum(["scheduled", "stopped", "off"])
    .describe(
      "Background re-checks of a pending domain (awaiting_dns, verifying): `scheduled` (next at nextCheckAt), `stopped` (the service stopped checking 7 days after the domain became pending: verify to start again), `off` (unconfigured, active or invalid)",
    ),
  nextCheckAt: z
    .string()
    .optional()
    .describe("ISO 8601 of the next automatic check; only while automaticChecks is scheduled"),
  claimExpiresAt: z
    .string()
    .optional()
    .describe(
      "ISO 8601: while the domain is not active, when it is deleted unless it has become active by then (IDV_DOMAIN_CLAIM_DAYS after it was configured or left active, default 7 days; verifying again does not extend it). Omitted while active",
    ),
  warnings: z
    .array(
      z.object({
        code: z
          .enum(["cname_target_unusable"])
          .describe(
            "`cname_target_unusable`: the CNAME records' value (the service's edge host) is an IP address or a local name, which a CNAME cannot point at; the service's operator must set PUBLIC_URL or IDV_CNAME_TARGET to a DNS name",
          ),
        message: z.string().describe("The warning in words, saying what must change"),
      }),
    )
    .optional()
    .describe(
      "Problems that keep the domain from working which the integrator cannot fix; omitted when there are none. For an unconfigured domain they are about the records a configure would create now",
    ),
});

const STATES =
  "States: `unconfigured` (no domain; requiredAction `none`) → PUT → `awaiting_dns` (`add_cname`). Each verify then follows what DNS says: no record found → `awaiting_dns` (`add_cname`); some right, others not yet visible → `verifying` (`waiting`); all right → `active` (`none`, the hosts are served); a record with a wrong value → `invalid` (`retry`: fix it, verify again); a host that became one of the service's own → `invalid` (`contact_support`). A DNS timeout or failing name server changes nothing but requiredAction (`retry`). While a domain is pending (awaiting_dns, verifying) the service re-checks it by itself, 1, 5, 15 and 60 minutes after the previous check and then every 6 hours, for up to 7 days; configuring and every verify start this schedule over. Only an active domain holds its hosts: other apps may configure the same hosts meanwhile, and the first whose DNS records prove control of the domain becomes active; every later check of the others ends in `invalid` (`contact_support`, host_taken) and their verify answers 400 DOMAIN_IN_USE naming the field. A domain that is not active is deleted at claimExpiresAt.";

export const getCustomDomain = endpoint({
  method: "GET",
  path: "/v1/apps/{client_id}/custom-domain",
  operationId: "getCustomDomain",
  summary: "Get the custom domain",
  description: `The app's custom domain state. An app without one gets status \`unconfigured\`. ${STATES}`,
  tag: "Custom domain",
  auth: "workspace",
  responses: { 200: { description: "The custom domain state", schema: ZCustomDomainJson } },
});

export const configureCustomDomain = endpoint({
  method: "PUT",
  path: "/v1/apps/{client_id}/custom-domain",
  operationId: "configureCustomDomain",
  summary: "Configure the custom domain",
  description:
    "Sets the app's custom domain (one per app) and returns the DNS records to add: a CNAME from each host to the service's edge host and a TXT ownership record `_idv-challenge.<base domain>` = `idv-verify=<token>`. Both hosts are host names only (no scheme, path, port or wildcard, not an IP), differ, are below the same registrable base domain (Public Suffix List: verify.shop.example.co.uk and auth.shop.example.co.uk share example.co.uk) and are not that base domain itself. Configuring only generates the records: add them, then call verify. 400 CUSTOM_DOMAIN_EXISTS when the app already has a custom domain (the message names its status; delete it first); 400 DOMAIN_IN_USE naming the field when another app's ACTIVE domain uses a host (hosts that other apps have only configured do not count: the first to prove control in DNS gets them).",
  tag: "Custom domain",
  auth: "workspace",
  body: ZConfigureCustomDomain,
  responses: {
    200: { description: "The new custom domain, awaiting DNS", schema: ZCustomDomainJson },
  },
});

export const verifyCustomDomain = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/custom-domain/verify",
  operationId: "verifyCustomDomain",
  summary: "Verify the custom domain's DNS records",
  description: `Looks the DNS records up now and advances the state; sets lastCheckedAt. dnsChecks gives each record's result (found, missing, wrong, lookup_failed) with what DNS holds at its name; statusMessage says the same in words. ${STATES} Empty body.`,
  tag: "Custom domain",
  auth: "workspace",
  // DNS lookups may take seconds: they run before, not inside, the write transaction
  transaction: false,
  responses: { 200: { description: "The custom domain state after the check", schema: ZCustomDomainJson } },
  // 400 DOMAIN_IN_USE: another app's domain became active on a host first (the check is recorded)
  errors: [400],
});

export const deleteCustomDomain = endpoint({
  method: "DELETE",
  path: "/v1/apps/{client_id}/custom-domain",
  operationId: "deleteCustomDomain",
  summary: "Delete the custom domain",
  description:
    "Removes the custom domain; its hosts stop being served and another domain can be configured. 404 when the app has none.",
  tag: "Custom domain",
  auth: "workspace",
  responses: { 200: { description: "Deleted", schema: z.object({ deleted: z.boolean() }) } },
});
