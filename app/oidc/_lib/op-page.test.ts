/**
 * The OP's pages as answers: status, language, security headers, and the pipeline's errors on the
 * same page (the routes themselves: app/oidc/[env]/*.integration.test.ts).
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { OP_PAGE_CSS_SHA256 } from "@/components/verify/op-page-styles";
import { PAGE_HEADERS, staticPageCsp } from "@/lib/http/security-headers.mjs";
import { AuthorizationError } from "@/lib/oidc/provider/authorization-error";
import { pickerPage } from "@/lib/oidc/provider/handlers";
import { errorPage } from "@/lib/oidc/provider/page";
import { OP_PAGE, opAnswer, opPageResponse } from "./op-page";

const browser = (acceptLanguage?: string) =>
  new Request("http://localhost:3000/oidc/sandbox/auth", {
    headers: acceptLanguage ? { "accept-language": acceptLanguage } : {},
  });

const refused = errorPage(
  new AuthorizationError("invalid_request", "redirect_uri: is not registered", false),
);

describe("OP page answers", () => {
  it("keep the error's status, send the end-user headers and a CSP without scripts", async () => {
    const res = opPageResponse(browser(), refused);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get("content-security-policy")).toBe(staticPageCsp(OP_PAGE_CSS_SHA256));
    const html = await res.text();
    expect(html).toContain('<p id="error" data-error="invalid_request"');
    expect(html).toContain("redirect_uri: is not registered");
    expect(html).toContain("<h1");
    expect(html).toContain("This sign-in cannot continue");
  });

  it("speak the request's ui_locales first, then Accept-Language, then English", async () => {
    const fr = await opPageResponse(browser("de-DE,de;q=0.9"), { ...refused, locale: "fr-CA" }).text();
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain("Cette connexion ne peut pas continuer");
    // the technical description stays in English, marked as such
    expect(fr).toContain('lang="en"');
    const de = await opPageResponse(browser("it, de;q=0.5"), { ...refused, locale: "it" }).text();
    expect(de).toContain('<html lang="de">');
    expect(de).toContain("Diese Anmeldung kann nicht fortgesetzt werden");
    const en = await opPageResponse(browser("es"), refused).text();
    expect(en).toContain('<html lang="en">');
  });

  it("show an end-user reason in the page's language", async () => {
    const page = errorPage(
      new AuthorizationError("invalid_request", "started in another browser", false),
      400,
      {
        reason: "other_browser",
      },
    );
    const de = await opPageResponse(browser("de"), page).text();
    expect(de).toContain("Diese Anmeldung wurde in einem anderen Browser begonnen.");
    expect(de).not.toContain('lang="en"');
  });

  it("the picker: 200, the app's brand, one link per provider back to /auth", async () => {
    const page = pickerPage({
      environment: "production",
      app: { name: "Shop", logo: "javascript:alert(1)" },
      providers: [],
      search: new URLSearchParams({ client_id: "app_1" }),
      locale: "de",
    });
    // only a data: image is ever shown as the logo
    expect(page.app).toEqual({ name: "Shop" });
    const res = opPageResponse(browser(), page);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Bei Shop anmelden");
    expect(html).not.toContain("Sandbox");
  });

  it("redirects pass through as they are", () => {
    const redirect = new Response(null, { status: 303, headers: { Location: "/verify/ver_1" } });
    expect(opAnswer(browser(), redirect)).toBe(redirect);
  });

  it("the pipeline's errors are the same page: 5xx names the request id, headers are kept", async () => {
    const crash = OP_PAGE.error(new ApiError("INTERNAL_ERROR", "boom"), "req_42", browser("fr"));
    expect(crash.status).toBe(500);
    const text = await crash.text();
    expect(text).toContain('data-error="server_error"');
    expect(text).toContain("req_42");
    expect(text).not.toContain("boom");
    expect(text).toContain('<html lang="fr">');
    const method = OP_PAGE.error(
      new ApiError("METHOD_NOT_ALLOWED", "PUT is not allowed here", {
        headers: { Allow: "GET, HEAD, OPTIONS" },
      }),
      "req_43",
    );
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await method.text()).toContain('data-error="invalid_request"');
  });
});
