/** Endpoint definitions of activation (Workspace API) and activation review (Operator API). */
import { z } from "zod";
import { endpoint } from "../http/endpoint";
import { pageOf } from "../http/pagination";
import { ZProviderWithActivationJson } from "../providers/schema";
import {
  ZListTicketsQuery,
  ZQueueTicketJson,
  ZRecordContract,
  ZRejectTicket,
  ZSubmitActivation,
  ZTicketDetailJson,
  ZTicketJson,
} from "./schema";

export const submitActivation = endpoint({
  method: "POST",
  path: "/v1/apps/{client_id}/activation",
  operationId: "submitActivation",
  summary: "Submit provider activations",
  description: [
    "Body `{providers: {<providerId>: {<requirement id>: value}}, demo?: true}`; requirement ids come from `activation.requirements` (GET …/providers?include=activation), direct providers take `{}`.",
    "Values: text/email/url strings (trimmed, within `maxLength`; `pattern` is advisory), a boolean for a checkbox without options (a required one must be true), an array of option values for a checkbox with options, one option value for a select.",
    "Outcome per provider: direct → `activated` at once; registration → `activation_requested` (operator review); `demo: true` (sandbox only; 400 in production) → `activation_processing`, then `activated` about a second later; contract without demo → stays `not_activated`, no ticket (its `supportContact` says whom to contact); a rejected provider can be resubmitted (new ticket).",
    "All or nothing: an unknown provider, an invalid or unknown value, is a 400 naming `providers.<id>[.<requirement>]`; a provider already activated or under review is 409 ACTIVATION_STATE_CONFLICT, and nothing is written. Submitting adds the provider to the app; company information is remembered to prefill later forms. Honours `Idempotency-Key`.",
  ].join("\n\n"),
  tag: "Activation",
  auth: "workspace",
  body: ZSubmitActivation,
  idempotent: true,
  responses: {
    200: {
      description: "The submitted providers' entries with status and activation, in the order submitted",
      schema: z.array(ZProviderWithActivationJson),
    },
  },
  errors: [409],
});

export const listActivationTickets = endpoint({
  method: "GET",
  path: "/v1/operator/activations",
  operationId: "listActivationTickets",
  summary: "List activation tickets (operator)",
  description:
    "Tickets of this environment in one status (default `activation_requested`; also `activation_processing`, `rejected`, `activated`), oldest first, across all workspaces, each with its workspace's name (`workspaceName`). `providerId` keeps one provider's tickets (400 for an id outside the catalog). `limit` 1–100 (default 50), `offset` ≥ 0.",
  tag: "Operator",
  auth: "operator",
  query: ZListTicketsQuery,
  responses: { 200: { description: "A page of tickets", schema: pageOf(ZQueueTicketJson) } },
});

export const getActivationTicket = endpoint({
  method: "GET",
  path: "/v1/operator/activations/{ticket_id}",
  operationId: "getActivationTicket",
  summary: "Get an activation ticket with its review context (operator)",
  description:
    "One ticket of this environment (404 for another environment's or a deleted app's) with what its review needs: the provider's current requirements, each with this ticket's `submittedValue` and the app's remembered company information as `currentValue`; the app's company information; and the other tickets of the same app and provider (`history`, newest first).",
  tag: "Operator",
  auth: "operator",
  responses: { 200: { description: "The ticket and its review context", schema: ZTicketDetailJson } },
});

export const recordContractActivation = endpoint({
  method: "POST",
  path: "/v1/operator/activations",
  operationId: "recordContractActivation",
  summary: "Record a contract activation (operator)",
  description:
    "Contract providers are activated off-API once the contract is signed; this records it for an app of this environment (body `{clientId, providerId}`): a ticket created `activated`, the provider activated and enabled. Only contract providers that are not activated yet.",
  tag: "Operator",
  auth: "operator",
  errors: [409],
  body: ZRecordContract,
  responses: { 201: { description: "The activated ticket", schema: ZTicketJson } },
});

export const startActivationReview = endpoint({
  method: "POST",
  path: "/v1/operator/activations/{ticket_id}/review",
  operationId: "startActivationReview",
  summary: "Start reviewing an activation (operator)",
  description: "activation_requested → activation_processing. Any other status is refused, naming it.",
  tag: "Operator",
  auth: "operator",
  errors: [409],
  responses: { 200: { description: "The ticket under review", schema: ZTicketJson } },
});

export const approveActivation = endpoint({
  method: "POST",
  path: "/v1/operator/activations/{ticket_id}/approve",
  operationId: "approveActivation",
  summary: "Approve an activation (operator)",
  description:
    "activation_processing → activated: `activatedAt` set, the submitted values become the provider's configuration and the provider is enabled for the app. Start the review first; any other status is refused, naming it.",
  tag: "Operator",
  auth: "operator",
  errors: [409],
  responses: { 200: { description: "The activated ticket", schema: ZTicketJson } },
});

export const rejectActivation = endpoint({
  method: "POST",
  path: "/v1/operator/activations/{ticket_id}/reject",
  operationId: "rejectActivation",
  summary: "Reject an activation (operator)",
  description:
    'activation_processing → rejected with `{"reason": "…"}` (1–500 characters), shown to the integrator as `activation.rejectionReason`. The integrator can resubmit. Any other status is refused, naming it.',
  tag: "Operator",
  auth: "operator",
  errors: [409],
  body: ZRejectTicket,
  responses: { 200: { description: "The rejected ticket", schema: ZTicketJson } },
});
