/**
 * Provider adapters are one interface (issue 24 §3): what a production adapter declares to be
 * run through a connection. One module per adapter implements it (./oidc.ts, ./saml.ts,
 * ./wallet.ts) and ./registry.ts lists them; the settings checks (../schema.ts), the Operator
 * API (../service.ts, ../check.ts), the back-office test sign-in (../test-sign-in.ts) and the
 * sessions' sign-in driver (lib/verifications/sign-in.ts) read the registry, never an adapter's
 * name.
 * Rules:
 * - a module wraps its protocol code (lib/providers/adapters/*) and imports nothing of
 *   lib/verifications, nor ../schema.ts or ../service.ts (they read the registry: no cycle);
 * - settings: `input` checks a PUT's settings (secrets optional: a stored one is kept), `full`
 *   the stored settings and secrets together and turns them into the adapter's configuration;
 *   `secretFields` are sealed and never returned;
 * - sign-in adapters (`signIn`) start with a URL to send the browser to and state to seal with
 *   whoever started (a session, or an operator's test sign-in), and finish from the answer the
 *   browser brings back — a redirect's query (`redirect_query`) or a cross-site form post
 *   (`form_post`, which carries no cookie of ours: the caller's `bind` value comes back in it).
 *   The caller checks that the answer carries the binding before complete() runs;
 * - complete() never throws for what the answer contains: a refusal is a failure outcome, the
 *   precise cause in `refusal` (logged for sessions, shown to the operator of a test sign-in).
 */
import type { z } from "zod";
import type { TEnvironment } from "../../environments";
import type { TAdapterOutcome } from "../../providers/adapters/types";
import type { TProviderDefinition } from "../../providers/catalog";
import type { TConnectionCheckJson } from "../check-json";

/** What the connection's JSON adds for this adapter (what is stored, or what to register upstream). */
export interface TConnectionJsonExtras {
  /** oidc: whether a client secret is stored */
  clientSecretSet?: boolean;
  /** saml: what to register at the identity provider */
  serviceProvider?: { entityId: string; metadataUrl: string; acsUrl: string };
}

/** How the upstream's answer reaches us. */
export type TAnswerChannel = "redirect_query" | "form_post";

/** The browser's answer: the callback URL (redirect_query) or the posted form (form_post). */
export type TSignInAnswer =
  | { channel: "redirect_query"; url: URL }
  | { channel: "form_post"; form: Record<string, string | undefined> };

/** Where a sign-in runs, and the value that binds its answer to whoever started it. */
export interface TSignInStart<TState> {
  env: TEnvironment;
  providerId: string;
  /**
   * For adapters whose answer carries no state of ours (form_post): the value to send with the
   * request and get back with the answer (SAML RelayState), given the state the adapter will
   * need to complete (a caller may seal that state into it). Adapters that get their own
   * binding back (OIDC `state`) do not call it.
   */
  bind(state: TState): string;
}

export interface TSignInBegun<TState> {
  /** where to send the browser */
  url: string;
  /** what complete() needs, sealed by the caller */
  state: TState;
  /** the value the answer must carry back (see bindingOf) */
  binding: string;
}

export interface TSignInCompletion {
  outcome: TAdapterOutcome;
  /** a refused answer's precise cause (the outcome says only `authentication_failed`) */
  refusal?: { reason: string; message: string };
}

export interface TSignInAdapter<TSettings, TState> {
  answer: TAnswerChannel;
  /** what the answer is called in log lines ("SAML response": "SAML response refused") */
  answerName: string;
  /** the sealed state as read back (a foreign or garbled one fails to parse) */
  stateSchema: z.ZodType<TState>;
  begin(settings: TSettings, start: TSignInStart<TState>): Promise<TSignInBegun<TState>>;
  /** the binding an answer carries (OIDC: its `state` parameter; SAML: RelayState) */
  bindingOf(answer: TSignInAnswer): string | undefined;
  complete(
    settings: TSettings,
    state: TState,
    answer: TSignInAnswer,
    at: { env: TEnvironment; providerId: string },
  ): Promise<TSignInCompletion>;
}

export interface TConnectionAdapterModule<Id extends string = string, TSettings = unknown, TState = unknown> {
  id: Id;
  settings: {
    /** a PUT's settings (secrets optional), after normaliseInput: the back-office form's schema */
    input: z.ZodType;
    /** the stored settings and secrets together → the adapter's configuration */
    full: z.ZodType<TSettings>;
    /** sealed with the master key, never returned */
    secretFields: readonly string[];
    /** a kept secret goes with a setting: dropped when the PUT no longer sends that setting */
    secretBelongsTo?: Readonly<Record<string, string>>;
    /** a PUT's settings in another accepted shape turned into the input schema's */
    normaliseInput?(input: unknown): unknown;
    /** what the settings point to, fetched before the PUT's transaction (400 naming the field) */
    resolveInput?(settings: Record<string, unknown>): Promise<Record<string, unknown>>;
  };
  /** null when `provider` can run on this adapter; else why not (a 400 naming `adapter`) */
  refuses(provider: TProviderDefinition): string | null;
  /** the connection JSON's adapter-specific fields */
  connectionJson(
    row: { environment: TEnvironment; providerId: string; settings: unknown },
    secrets: Record<string, string>,
  ): TConnectionJsonExtras;
  /** "Check connection"; absent: the adapter has nothing to check (400) */
  check?(providerId: string, settings: TSettings): Promise<TConnectionCheckJson>;
  /** a redirect sign-in (sessions and the back-office test sign-in); absent: not one */
  signIn?: TSignInAdapter<TSettings, TState>;
}
