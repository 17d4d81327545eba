/**
 * Query keys, types and shared queries of an app's Webhooks tab. Keys carry the environment and
 * the app, so a change invalidates exactly one app's webhook data.
 */
import { useQuery } from "@tanstack/react-query";
import { api, type TEnv } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import type { TWebhookConfigResourceJson } from "@/lib/webhooks/config";
import type {
  TDeliveryAttemptDetailJson,
  TDeliveryDetailJson,
  TDeliveryJson,
} from "@/lib/webhooks/log/endpoints";
import type { TPage } from "@/lib/http/pagination";

/** The configuration as the console keeps it: never the secret (see `toCachedConfig`). */
export type TWebhookConfig = Omit<TWebhookConfigResourceJson, "secret">;
export type TWebhookConfigWithSecret = TWebhookConfigResourceJson;
export type TDelivery = TDeliveryJson;
export type TDeliveryDetail = TDeliveryDetailJson;
export type TDeliveryAttemptDetail = TDeliveryAttemptDetailJson;
export type TDeliveryStatus = TDelivery["status"];

export type TDeliveryPage = TPage<TDelivery>;

export interface TDeliveryListParams {
  status: TDeliveryStatus | "";
  offset: number;
  limit: number;
}

export const webhookKeys = {
  all: (env: TEnv) => ["webhooks", env] as const,
  app: (env: TEnv, clientId: string) => [...webhookKeys.all(env), clientId] as const,
  config: (env: TEnv, clientId: string) => [...webhookKeys.app(env, clientId), "config"] as const,
  deliveries: (env: TEnv, clientId: string) => [...webhookKeys.app(env, clientId), "deliveries"] as const,
  deliveryList: (env: TEnv, clientId: string, params: TDeliveryListParams) =>
    [...webhookKeys.deliveries(env, clientId), "list", params] as const,
  delivery: (env: TEnv, clientId: string, deliveryId: string) =>
    [...webhookKeys.deliveries(env, clientId), "detail", deliveryId] as const,
};

/**
 * How often views with pending deliveries refetch (tab visible only). Retries come after 1 s,
 * 5 s and 30 s by default, so a few seconds shows each one soon after it happened.
 */
export const LIVE_INTERVAL_MS = 2_000;

export function webhookConfigPath(clientId: string): string {
  return `/v1/apps/${encodeURIComponent(clientId)}/webhook-config`;
}

export function deliveriesPath(clientId: string): string {
  return `/v1/apps/${encodeURIComponent(clientId)}/webhook-deliveries`;
}

/**
 * Drops the signing secret the API returns to roles with `credentials`: the cache (and so the page) holds the
 * settings only; the secret is fetched on Reveal and lives in that component while shown.
 */
export function toCachedConfig(config: TWebhookConfigWithSecret): TWebhookConfig {
  return {
    url: config.url,
    enabled: config.enabled,
    retryAttempts: config.retryAttempts,
    timeoutSeconds: config.timeoutSeconds,
    events: config.events,
    signed: config.signed,
    secretReadable: config.secretReadable,
  };
}

export function useWebhookConfig(clientId: string) {
  const { env } = useConsole();
  return useQuery({
    queryKey: webhookKeys.config(env, clientId),
    queryFn: async ({ signal }) =>
      toCachedConfig(await api<TWebhookConfigWithSecret>(env, webhookConfigPath(clientId), { signal })),
  });
}

/** One delivery with its attempts' details; refreshes while it is pending. */
export function useDelivery(clientId: string, deliveryId: string | null) {
  const { env } = useConsole();
  return useQuery({
    queryKey: webhookKeys.delivery(env, clientId, deliveryId ?? ""),
    queryFn: ({ signal }) =>
      api<TDeliveryDetail>(env, `${deliveriesPath(clientId)}/${encodeURIComponent(deliveryId!)}`, { signal }),
    enabled: deliveryId !== null,
    refetchInterval: (query) => {
      const delivery = query.state.data;
      if (delivery?.status !== "pending") return false;
      // the first attempt goes out at once: ask again soon for its answer
      return delivery.attempts.length === 0 ? 1_000 : LIVE_INTERVAL_MS;
    },
  });
}
