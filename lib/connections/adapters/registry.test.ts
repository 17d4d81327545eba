// The one registry of connection adapters: each module under its own id, its secrets among its
// input settings, and the catalog providers it refuses named in the refusal.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PROVIDERS } from "../../providers/catalog";
import { adapterModuleOf, CONNECTION_ADAPTER_MODULES, CONNECTION_ADAPTERS } from "./registry";

describe("the connection adapter registry", () => {
  it("lists every module under its own id, in the API's enum", () => {
    expect(CONNECTION_ADAPTERS).toEqual(["oidc", "saml", "wallet"]);
    for (const id of CONNECTION_ADAPTERS) expect(CONNECTION_ADAPTER_MODULES[id].id).toBe(id);
    expect(adapterModuleOf("saml")).toBe(CONNECTION_ADAPTER_MODULES.saml);
    // a stored value outside the list, or an inherited property name, is no adapter
    expect(adapterModuleOf("vendor")).toBeUndefined();
    expect(adapterModuleOf("toString")).toBeUndefined();
  });

  it("declares secrets that are settings of its input schema", () => {
    for (const id of CONNECTION_ADAPTERS) {
      const { input, secretFields, secretBelongsTo } = CONNECTION_ADAPTER_MODULES[id].settings;
      const json = z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as {
        properties?: Record<string, unknown>;
      };
      const names = Object.keys(json.properties ?? {});
      for (const secret of secretFields) expect(names, `${id}.${secret}`).toContain(secret);
      for (const [secret, setting] of Object.entries(secretBelongsTo ?? {})) {
        expect(secretFields).toContain(secret);
        expect(names).toContain(setting);
      }
    }
  });

  it("says which catalog providers each adapter runs, naming the provider when it refuses", () => {
    const wallet = PROVIDERS.find((p) => p.adapters.production === "wallet")!;
    const redirect = PROVIDERS.find((p) => p.adapters.production !== "wallet")!;
    expect(CONNECTION_ADAPTER_MODULES.oidc.refuses(redirect)).toBeNull();
    expect(CONNECTION_ADAPTER_MODULES.saml.refuses(redirect)).toBeNull();
    expect(CONNECTION_ADAPTER_MODULES.saml.refuses(wallet)).toContain(`"${wallet.id}" is a wallet provider`);
    expect(CONNECTION_ADAPTER_MODULES.wallet.refuses(wallet)).toBeNull();
    expect(CONNECTION_ADAPTER_MODULES.wallet.refuses(redirect)).toContain(
      `"${redirect.id}" is not a wallet provider`,
    );
  });

  it("gives the sign-in adapters their answer channel; wallet signs in elsewhere", () => {
    expect(CONNECTION_ADAPTER_MODULES.oidc.signIn?.answer).toBe("redirect_query");
    expect(CONNECTION_ADAPTER_MODULES.saml.signIn?.answer).toBe("form_post");
    expect(adapterModuleOf("wallet")?.signIn).toBeUndefined();
  });
});
