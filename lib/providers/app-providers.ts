/**
 * The providers of one app, as the Workspace API shows them, and switching them on and off.
 * Rules:
 * - production lists the whole catalog; the sandbox lists only providers added to the app (spec:
 *   "Providers never added to an app are omitted from the sandbox listing"), unless the caller
 *   asks for `scope=catalog` (how the console and a new integrator discover what can be added);
 * - isActive iff the status is activated; needAction iff activated and the stored configuration
 *   fails the provider's current requirements;
 * - `include=activation` (repeatable, comma-separable, unknown values ignored) adds the status
 *   and the activation object: requirements prefilled from the app's company information, the
 *   latest ticket's values and timestamps;
 * - only an activated provider can be enabled or disabled; that is the App's
 *   `providers[id].enabled` and drives the App API listing;
 * - `available` (with `unavailableReason`): whether sessions can start — in production only with
 *   a working, enabled connection (lib/connections/runtime.ts); activation works either way.
 */
import type { WorkspaceAuth } from "../auth/workspace-keys";
import {
  availabilityFields,
  connectionAvailabilities,
  type TConnectionAvailability,
} from "../connections/runtime";
import { recordAudit, workspaceAudit } from "../audit";
import type { Db } from "../db/client";
import { getOwnedApp } from "../apps/service";
import { ApiError, notFound } from "../errors";
import { activationStatusOf } from "../activation/state-machine";
import { findProvider, PROVIDERS, type TProviderDefinition } from "./catalog";
import {
  configNeedsAction,
  isCompanyInfo,
  parseCompanyInfo,
  parseSubmittedValues,
  type TRequirement,
  type TRequirementValue,
} from "./requirements";
import type { TActivationJson, TProviderJson, TRequirementJson } from "./schema";
import {
  readActivationTickets,
  readAppProviderRow,
  readAppProviderRows,
  setAppProviderEnabled,
  type TActivationTicketRow,
  type TAppProviderRow,
} from "./store";

export interface TAppContext {
  id: string;
  environment: "sandbox" | "production";
  companyInfo: unknown;
}

/** The `include` values of a request: every `include` parameter, comma lists split. */
export function parseInclude(url: URL): Set<string> {
  return new Set(
    url.searchParams
      .getAll("include")
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean),
  );
}

export function providerNeedsAction(
  provider: TProviderDefinition,
  row: TAppProviderRow | undefined,
): boolean {
  return (
    activationStatusOf(row) === "activated" &&
    configNeedsAction(provider.activation.requirements, row!.config)
  );
}

export function requirementJson(
  r: TRequirement,
  companyInfo: Record<string, unknown>,
  submitted: Record<string, TRequirementValue> | undefined,
): TRequirementJson {
  const current = isCompanyInfo(r) ? companyInfo[r.id] : undefined;
  const previous = r.type === "info" ? undefined : submitted?.[r.id];
  const base = { id: r.id, type: r.type, label: r.label, description: r.description };
  const values = {
    currentValue: typeof current === "string" ? current : null,
    submittedValue: previous ?? null,
  };
  switch (r.type) {
    case "info":
      return { ...base, value: r.value, ...values };
    case "text":
    case "email":
    case "url":
      return {
        ...base,
        example: r.example,
        required: r.required,
        maxLength: r.maxLength,
        ...(r.pattern ? { pattern: r.pattern } : {}),
        ...values,
      };
    case "checkbox":
      return { ...base, required: r.required, ...(r.options ? { options: r.options } : {}), ...values };
    case "select":
      return { ...base, required: r.required, options: r.options, ...values };
  }
}

function activationJson(
  provider: TProviderDefinition,
  row: TAppProviderRow | undefined,
  ticket: TActivationTicketRow | undefined,
  companyInfo: Record<string, unknown>,
): TActivationJson {
  const status = activationStatusOf(row);
  const submitted = ticket ? parseSubmittedValues(ticket.submitted) : undefined;
  const activatedAt = status === "activated" ? (row?.activatedAt ?? ticket?.activatedAt) : undefined;
  return {
    status,
    ...(ticket ? { id: ticket.id } : {}),
    requirements: provider.activation.requirements.map((r) => requirementJson(r, companyInfo, submitted)),
    ...(ticket ? { requestedAt: ticket.requestedAt.toISOString() } : {}),
    ...(activatedAt ? { activatedAt: activatedAt.toISOString() } : {}),
    ...(status === "rejected" && ticket?.rejectedAt ? { rejectedAt: ticket.rejectedAt.toISOString() } : {}),
    ...(status === "rejected" && ticket?.rejectionReason ? { rejectionReason: ticket.rejectionReason } : {}),
  };
}

export function toProviderJson(
  provider: TProviderDefinition,
  state: {
    row?: TAppProviderRow;
    ticket?: TActivationTicketRow;
    companyInfo?: Record<string, unknown>;
    withActivation: boolean;
    availability: TConnectionAvailability;
  },
): TProviderJson {
  const { row, ticket, withActivation } = state;
  const status = activationStatusOf(row);
  return {
    id: provider.id,
    name: provider.name,
    description: provider.description,
    logoUrl: provider.logoUrl,
    countries: provider.countries,
    flowTypes: provider.flowTypes,
    scopes: provider.scopes,
    loa: provider.loa,
    defaultLoa: provider.defaultLoa,
    type: provider.type,
    verificationModel: provider.verificationModel,
    ...(provider.matchGranularity ? { matchGranularity: provider.matchGranularity } : {}),
    activationKind: provider.activation.kind,
    enabled: status === "activated" && row!.enabled,
    isActive: status === "activated",
    needAction: providerNeedsAction(provider, row),
    ...availabilityFields(state.availability),
    ...(withActivation
      ? { status, activation: activationJson(provider, row, ticket, state.companyInfo ?? {}) }
      : {}),
  };
}

/**
 * The entries of `providerIds` (or, without it, of the environment's listing) for `app`, with
 * their rows and current tickets loaded in two queries.
 */
export async function loadProviderEntries(
  db: Db,
  app: TAppContext,
  options: { providerIds?: string[]; withActivation: boolean; wholeCatalog?: boolean },
): Promise<TProviderJson[]> {
  const rows = await readAppProviderRows(db, app.id);
  const rowById = new Map(rows.map((r) => [r.providerId, r]));
  let providers: TProviderDefinition[];
  if (options.providerIds) {
    providers = options.providerIds.map((id) => findProvider(id)).filter((p) => p !== undefined);
  } else {
    providers =
      app.environment === "production" || options.wholeCatalog
        ? [...PROVIDERS]
        : PROVIDERS.filter((p) => rowById.has(p.id));
  }
  const ticketIds = options.withActivation
    ? providers.map((p) => rowById.get(p.id)?.currentTicketId).filter((id): id is string => !!id)
    : [];
  const tickets = ticketIds.length ? await readActivationTickets(db, ticketIds) : [];
  const ticketById = new Map(tickets.map((t) => [t.id, t]));
  const companyInfo = options.withActivation ? parseCompanyInfo(app.companyInfo) : {};
  const availability = await connectionAvailabilities(
    app.environment,
    providers.map((p) => p.id),
    db,
  );
  return providers.map((provider) => {
    const row = rowById.get(provider.id);
    return toProviderJson(provider, {
      row,
      ticket: row?.currentTicketId ? ticketById.get(row.currentTicketId) : undefined,
      companyInfo,
      withActivation: options.withActivation,
      availability: availability.get(provider.id)!,
    });
  });
}

export async function listAppProviders(
  db: Db,
  auth: WorkspaceAuth,
  clientId: string,
  include: Set<string>,
  scope: "app" | "catalog" = "app",
): Promise<TProviderJson[]> {
  const app = await getOwnedApp(db, auth, clientId);
  return loadProviderEntries(db, app, {
    withActivation: include.has("activation"),
    wholeCatalog: scope === "catalog",
  });
}

export async function setProviderEnabled(
  db: Db,
  actor: { auth: WorkspaceAuth; requestId: string },
  clientId: string,
  providerId: string,
  enabled: boolean,
): Promise<TProviderJson> {
  const app = await getOwnedApp(db, actor.auth, clientId);
  const provider = findProvider(providerId);
  if (!provider) throw notFound(`Provider "${providerId}"`);
  const row = await readAppProviderRow(db, app.id, providerId);
  const status = activationStatusOf(row);
  if (status !== "activated") {
    const message = `is not activated for this app (status: ${status}); activate it first with POST /v1/apps/{client_id}/activation`;
    throw new ApiError("PROVIDER_NOT_AVAILABLE", `Provider "${providerId}" ${message}`, {
      details: [{ path: "provider_id", message }],
    });
  }
  if (row!.enabled !== enabled) {
    // a missing row answers 404 RESOURCE_NOT_FOUND, should the row go between the read and here
    if (!(await setAppProviderEnabled(db, app.id, providerId, enabled)))
      throw new ApiError("RESOURCE_NOT_FOUND", "Resource not found");
    await recordAudit(db, {
      ...workspaceAudit(actor),
      action: enabled ? "app_provider.enabled" : "app_provider.disabled",
      targetType: "app",
      targetId: app.id,
      data: { providerId },
    });
  }
  const [entry] = await loadProviderEntries(db, app, { providerIds: [providerId], withActivation: true });
  return entry!;
}
