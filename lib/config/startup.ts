/**
 * What `idv serve` (npm start, npm run dev) checks before it starts the database and Next.js:
 * every variable (config()), and the entries of the two JSON settings whose schema belongs to an
 * adapter (IDV_UPSTREAM_OIDC, IDV_WALLET_TRUSTED_ISSUERS). A bad value throws ConfigError naming
 * the variable, so the service refuses to start instead of failing the first request that needs
 * it. The adapters are imported here, on start-up only, so that lib/config itself stays light
 * (the Next.js server's own check in instrumentation.ts parses config() only; a server started
 * without the launcher checks the adapters' entries at their first use).
 */
import { config, type TConfig } from "./index";

export async function checkConfiguration(): Promise<TConfig> {
  const settings = config();
  const [{ upstreamConfigs }, { walletTrustConfigs }] = await Promise.all([
    import("../verifications/upstream"),
    import("../verifications/wallet"),
  ]);
  upstreamConfigs();
  walletTrustConfigs();
  return settings;
}
