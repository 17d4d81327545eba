/**
 * Creating a verification session, and its creation events.
 * Rules:
 * - a session runs one provider that is activated and enabled for the app, with the app's chosen
 *   (or default) workflow; the workflow is planned at creation (which verification node runs) and
 *   the session keeps the version it was planned on;
 * - in production the provider must also have a working, enabled connection (lib/connections
 *   runtime.ts connectionAvailability): else 400 PROVIDER_NOT_AVAILABLE, nothing written;
 * - redirect_uri is one of the app's; matchData is required by match providers and refused by
 *   the others; flowType is one the provider supports; a challengeId is the app's own;
 * - events in order at creation: created, requested, workflow.started; the session, its events
 *   and their deliveries are one statement (store.ts), inside the caller's transaction when
 *   it has one; no job: the expiry sweep ends it at expiresAt (expiry-sweep.ts);
 * - sessions of the OpenID Provider (viaOidcProvider) are created by anonymous requests: they
 *   start `untouched` and their three creation events are written at the end-user's first action
 *   instead (`announcement`, by transitions.ts; still first, in the same order), and one nobody
 *   acted on expires silently;
 * - "acted on" is the session's first move other than expiry (transitions.ts `move`): the
 *   end-user reaching the provider, cancelling on the hosted page, an outcome the provider or
 *   simulator reports (or the integrator's cancel). Loading /auth, the picker or the hosted page
 *   is no act. Until then the session is in no list, statistic or webhook of its workspace
 *   (lib/verifications/log, lib/stats), counts toward its app's cap (lib/oidc/provider/untouched.ts)
 *   and, once ended, is deleted by the OpenID Provider's purge (lib/oidc/purge.ts).
 */
import { countSessionCreated } from "../metrics/count";
import type { AppAuth } from "../auth/app-credentials";
import { connectionAvailability } from "../connections/runtime";
import type { Db } from "../db/client";
import type { Verification } from "../db/rows";
import { ApiError, invalidField } from "../errors";
import { newId } from "../ids";
import { validateMatchData } from "../providers/adapters/match";
import { findProvider } from "../providers/catalog";
import type { TEventSpec } from "../webhooks/events";
import { planVerification } from "../workflows/engine/plan";
import type { TRunnableWorkflow } from "../workflows/engine/nodes";
import {
  insertVerification,
  plannableWorkflow,
  readCreationContext,
  type TNewVerification,
} from "./store/creation";
import type { TVerificationCreated } from "./endpoints";
import { seal } from "./personal-data";
import { hostedPageUrl } from "./read";
import type { TCreateVerification } from "./schema";
import { sessionTtlSeconds } from "./settings";
import type { TVerificationState } from "./state-machine";

/** Where every session starts. */
const INITIAL_STATE = "awaiting_user_action" satisfies TVerificationState;

function providerUnavailable(message: string): ApiError {
  return new ApiError("PROVIDER_NOT_AVAILABLE", message, { details: [{ path: "providerId", message }] });
}

export interface TCreateVerificationOptions {
  /** the OpenID Provider's sessions always run in the browser, whatever the workflow plans */
  channel?: "oidc";
}

export async function createVerification(
  db: Db,
  auth: AppAuth,
  input: TCreateVerification,
  options: TCreateVerificationOptions = {},
): Promise<TVerificationCreated> {
  const app = await readCreationContext(db, auth.clientId, input);
  const provider = findProvider(input.providerId);
  if (!provider) throw providerUnavailable(`Unknown provider "${input.providerId}"`);
  const appProvider = app.providers.find((p) => p.providerId === provider.id);
  if (!appProvider || appProvider.status !== "activated") {
    throw providerUnavailable(`Provider "${provider.id}" is not activated for this app`);
  }
  if (!appProvider.enabled) throw providerUnavailable(`Provider "${provider.id}" is disabled for this app`);
  // the honest catalog: a production session needs a connection that can answer it (the
  // workflow, the OpenID Provider and production tests all start sessions here)
  const availability = await connectionAvailability(auth.environment, provider.id, db);
  if (!availability.available) throw providerUnavailable(availability.message);

  const workflow = app.workflow ? await plannableWorkflow(db, app.workflow) : null;
  if (!workflow) {
    throw input.workflowId
      ? invalidField("workflowId", `no workflow "${input.workflowId}" in this app`)
      : new ApiError("VALIDATION_ERROR", "The app has no default workflow");
  }
  const appProviders = Object.fromEntries(
    app.providers.map((p) => [p.providerId, { enabled: p.enabled && p.status === "activated" }]),
  );
  const planned = planVerification(workflow.runnable, {
    providerId: provider.id,
    provider,
    appProviders,
  });
  const plan = options.channel ? { ...planned, channel: options.channel } : planned;

  if (input.redirect_uri !== undefined && !app.redirectUris.includes(input.redirect_uri)) {
    throw invalidField("redirect_uri", "must be one of the app's registered redirectUris");
  }
  if (provider.verificationModel === "match") {
    if (!input.matchData)
      throw invalidField("matchData", `is required for the match provider "${provider.id}"`);
    validateMatchData(provider, input.matchData);
  } else if (input.matchData) {
    throw invalidField("matchData", `is only accepted by match providers; "${provider.id}" discloses claims`);
  }
  // production: the flows its connection answers (an OIDC or SAML front door is a redirect);
  // the sandbox: every flow of the catalog entry (the simulator plays them all)
  const flows = availability.flows ?? provider.flowTypes;
  const flowType = input.flowType ?? flows.find((f) => provider.flowTypes.includes(f)) ?? flows[0]!;
  if (!flows.includes(flowType)) {
    throw invalidField(
      "flowType",
      availability.flows
        ? `"${provider.id}" is connected in this deployment for ${flows.join(", ")} only`
        : `"${provider.id}" supports ${provider.flowTypes.join(", ")}`,
    );
  }
  if (input.challengeId && !app.challengeFound) {
    throw invalidField("challengeId", "no such production-test challenge for this app");
  }

  const now = new Date();
  const id = newId("ver");
  const created: TNewVerification = {
    id,
    appId: auth.clientId,
    workspaceId: app.workspaceId,
    environment: auth.environment,
    providerId: provider.id,
    workflowId: workflow.id,
    // the version the session was planned on (lib/workflows/versions.ts)
    workflowVersion: workflow.version,
    verificationNodeId: plan.verificationNodeId,
    flowType,
    channel: plan.channel,
    status: INITIAL_STATE,
    redirectUri: input.redirect_uri ?? null,
    state: input.state ?? null,
    locale: input.locale ?? null,
    deviceType: input.deviceType ?? null,
    countryCode: input.countryCode ?? null,
    challengeId: input.challengeId ?? null,
    matchDataEncrypted: input.matchData ? seal(input.matchData) : null,
    viaOidcProvider: options.channel === "oidc",
    createdAt: now,
    updatedAt: now,
    expiresAt: new Date(now.getTime() + sessionTtlSeconds() * 1000),
  };
  // The OpenID Provider's sessions come from anonymous GETs of /oidc/{env}/auth: their creation
  // events wait for the end-user's first action (move), so repeated requests cannot flood the
  // app's webhook
  const events = created.viaOidcProvider ? [] : creationEvents(created, plan.mode);
  await insertVerification(db, created, events);
  countSessionCreated(provider.id, auth.environment);
  return {
    verificationId: id,
    status: INITIAL_STATE,
    providerId: provider.id,
    workflowId: workflow.id,
    flowType,
    ...(plan.channel === "api" ? {} : { url: hostedPageUrl(id) }),
    createdAt: created.createdAt.toISOString(),
    expiresAt: created.expiresAt.toISOString(),
  };
}

/** verification.created, .requested and .workflow.started, in this order. */
function creationEvents(
  v: Pick<Verification, "channel" | "flowType" | "redirectUri" | "verificationNodeId">,
  mode: string,
): TEventSpec[] {
  return [
    { type: "verification.created" },
    {
      type: "verification.requested",
      metadata: {
        channel: v.channel,
        flowType: v.flowType,
        ...(v.redirectUri ? { redirectUri: v.redirectUri } : {}),
      },
    },
    {
      type: "verification.workflow.started",
      metadata: { verificationNodeId: v.verificationNodeId, mode },
    },
  ];
}

/** An OpenID Provider session nobody has acted on yet: its creation events are still to come. */
export function unannounced(v: Pick<Verification, "untouched">): boolean {
  return v.untouched;
}

/**
 * The deferred creation events of an OpenID Provider session, at the end-user's first action:
 * each with the session as it was then (`v`); `workflow` is the one it was planned on.
 */
export function announcement(v: Verification, workflow: TRunnableWorkflow | null): TEventSpec[] {
  const node = workflow?.nodes.find((n) => n.id === v.verificationNodeId);
  const mode = node?.config?.mode;
  return creationEvents(v, typeof mode === "string" ? mode : "pii").map((e) => ({ ...e, verification: v }));
}
