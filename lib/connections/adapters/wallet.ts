/**
 * The `wallet` connection adapter: the Digital Credentials path (lib/providers/adapters/wallet.ts;
 * sessions run it in lib/verifications/wallet.ts, in the end-user's browser, not as a redirect).
 * Rules:
 * - settings: the trusted issuers (iss → JWKS), vct and loa; no secrets;
 * - it connects wallet providers only; nothing to check upstream, no redirect sign-in.
 */
import { ZWalletTrustConfig, type TWalletTrustConfig } from "../../providers/adapters/wallet";
import type { TConnectionAdapterModule } from "./types";

export const walletConnectionAdapter: TConnectionAdapterModule<"wallet", TWalletTrustConfig> = {
  id: "wallet",
  settings: {
    input: ZWalletTrustConfig.strict(),
    full: ZWalletTrustConfig,
    secretFields: [],
  },
  refuses: (provider) =>
    provider.adapters.production === "wallet"
      ? null
      : `provider "${provider.id}" is not a wallet provider; wallet connects only those`,
  connectionJson: () => ({}),
};
