// The peer: oidc-provider (v9, Koa; a dev dependency) as a stand-alone OpenID Provider on a free
// port of 127.0.0.1, with one confidential client (client_secret_basic, PKCE S256), a freshly
// generated RS256 signing key, and in-memory storage (no database). Its development
// interactions are off; `/interaction/{uid}` signs the end-user in at once (account
// "bench-user") and grants `openid`, so that the benchmark can drive its authorization-code flow
// headlessly and mint codes and access tokens beforehand. Forked by scripts/bench.mjs; reports
// `{ ready, port, issuer, client }` over IPC. PEER_DEBUG=1 prints why grants are refused.
import http from "node:http";
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";

const PEER_CLIENT = {
  client_id: "bench-client",
  client_secret: "bench-client-secret-0123456789abcdef",
  redirect_uris: ["https://rp.example.com/cb"],
  grant_types: ["authorization_code"],
  response_types: ["code"],
  token_endpoint_auth_method: "client_secret_basic",
};

// its start-up warnings (runtime version, in-memory adapter) are expected here
const warn = console.warn;
console.warn = (...args) => (String(args[0]).startsWith("oidc-provider WARNING") ? undefined : warn(...args));
const { default: Provider } = await import("oidc-provider");

/**
 * Storage: the same in-memory model as oidc-provider's default adapter, but in plain Maps — the
 * default is an LRU of 1,000 entries, which evicts the first of a few hundred codes minted ahead
 * (each sign-in stores an interaction, a session, a grant and a code). Expiry is checked on read.
 */
const stores = new Map();
class MapAdapter {
  constructor(model) {
    this.model = model;
    if (!stores.has(model)) stores.set(model, new Map());
    this.items = stores.get(model);
  }
  static grants = new Map();
  async upsert(id, payload, expiresIn) {
    this.items.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    if (payload.grantId) {
      const ids = MapAdapter.grants.get(payload.grantId) ?? [];
      ids.push([this.model, id]);
      MapAdapter.grants.set(payload.grantId, ids);
    }
  }
  async find(id) {
    const item = this.items.get(id);
    if (!item) return undefined;
    if (item.expiresAt <= Date.now()) {
      this.items.delete(id);
      return undefined;
    }
    return item.payload;
  }
  async findByUid(uid) {
    for (const [id, item] of this.items) if (item.payload.uid === uid) return this.find(id);
    return undefined;
  }
  async findByUserCode(userCode) {
    for (const [id, item] of this.items) if (item.payload.userCode === userCode) return this.find(id);
    return undefined;
  }
  async consume(id) {
    const item = this.items.get(id);
    if (item) item.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    this.items.delete(id);
  }
  async revokeByGrantId(grantId) {
    for (const [model, id] of MapAdapter.grants.get(grantId) ?? []) stores.get(model)?.delete(id);
    MapAdapter.grants.delete(grantId);
  }
}

try {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "bench-rs256", alg: "RS256", use: "sig" };
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    adapter: MapAdapter,
    clients: [PEER_CLIENT],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    claims: { openid: ["sub"] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // codes are minted a few seconds before the token benchmark redeems them
    ttl: {
      AuthorizationCode: 300,
      AccessToken: 3600,
      IdToken: 3600,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
  });
  if (process.env.PEER_DEBUG)
    provider.on("grant.error", (_ctx, err) =>
      process.stderr.write(`peer grant.error: ${err.message} ${err.error_detail ?? ""}\n`),
    );
  provider.on("server_error", (_ctx, err) => process.stderr.write(`peer server_error: ${err.stack}\n`));
  const callback = provider.callback();

  server.on("request", async (req, res) => {
    if (!req.url.startsWith("/interaction/")) return callback(req, res);
    // the end-user signs in and consents at once
    try {
      const details = await provider.interactionDetails(req, res);
      const accountId = "bench-user";
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
      grant.addOIDCScope("openid");
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err.message));
    }
  });
  process.send({ ready: true, port, issuer, client: PEER_CLIENT });
} catch (err) {
  process.send({ error: err.stack ?? String(err) });
  process.exit(1);
}
process.on("SIGTERM", () => process.exit(0));
process.on("disconnect", () => process.exit(0));
