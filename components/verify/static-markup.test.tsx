/**
 * The static renderer of the OP's pages gives the markup React's own server renderer gives
 * (react-dom/server works here, in tests; Next.js refuses it in route handlers), and refuses what
 * a static page cannot do.
 */
import { Component, createContext, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LOCALES, messagesFor } from "@/lib/hosted/i18n";
import { AuthorizationError } from "@/lib/oidc/provider/authorization-error";
import { errorPage, type TOpPickerPage } from "@/lib/oidc/provider/page";
import { OpDocument, OpError, OpPicker, renderOpPage } from "./op-pages";
import { escapeHtml, staticMarkup } from "./static-markup";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const picker: TOpPickerPage = {
  kind: "picker",
  environment: "sandbox",
  app: { name: `Shop "<Quote>" & 'Co'`, logo: PNG },
  providers: [
    { id: "de_eid", name: "German eID card", countries: ["DE"], logo: PNG },
    {
      id: "passport",
      name: "Passport (NFC)",
      countries: ["DE", "FR", "NL", "BE", "AT", "CH", "IT", "ES", "PL"],
    },
  ],
  search: new URLSearchParams({
    client_id: "app_1",
    state: `a&b<c>"d"`,
    redirect_uri: "https://rp.example/cb",
  }),
};

const errors = [
  errorPage(new AuthorizationError("invalid_request", `client_id: no sandbox client "<x>"`, false)),
  errorPage(new AuthorizationError("server_error", "Something went wrong (req_1)", false), 500, {
    reason: "server",
    vars: { requestId: "req_1" },
  }),
  errorPage(
    new AuthorizationError("invalid_request", "This sign-in was started in another browser", false),
    400,
    {
      reason: "other_browser",
    },
  ),
];

describe("static markup", () => {
  it.each(LOCALES)("renders the OP's pages in %s exactly as react-dom/server does", (locale) => {
    const t = messagesFor(locale);
    const trees: ReactNode[] = [
      <OpDocument key="p" lang={locale} title="Picker">
        <OpPicker page={picker} t={t} locale={locale} />
      </OpDocument>,
      ...errors.map((page, i) => (
        <OpDocument key={i} lang={locale} title={t.op.errorTitle}>
          <OpError page={page} t={t} locale={locale} />
        </OpDocument>
      )),
    ];
    for (const tree of trees) expect(staticMarkup(tree)).toBe(renderToStaticMarkup(tree));
  });

  it("writes a whole document: doctype, language, title, the inline stylesheet", () => {
    const html = renderOpPage(picker, "de");
    expect(html.startsWith('<!DOCTYPE html><html lang="de"><head><meta charSet="utf-8"/>')).toBe(true);
    expect(html).toContain("<title>Bei Shop &quot;&lt;Quote&gt;&quot; &amp; &#x27;Co&#x27; anmelden</title>");
    expect(html).toContain("<style>/*! tailwindcss");
    expect(html).toContain('data-provider="passport"');
    // every choice repeats the request with provider added, escaped once
    expect(html).toContain(
      'href="auth?client_id=app_1&amp;state=a%26b%3Cc%3E%22d%22&amp;redirect_uri=https%3A%2F%2Frp.example%2Fcb&amp;provider=de_eid"',
    );
  });

  it("escapes text and attributes as React does", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;");
    const tree = (
      <p title={`"'<>&`} data-n={3} aria-hidden={false} hidden>
        {"<script>"}
        {7}
        {null}
        {false}
        {["a", "b"]}
      </p>
    );
    expect(staticMarkup(tree)).toBe(renderToStaticMarkup(tree));
  });

  it("refuses what a static page cannot honour", () => {
    const Ctx = createContext(1);
    class Legacy extends Component {
      override render() {
        return <p />;
      }
    }
    async function Later() {
      return <p />;
    }
    const unsupported: ReactNode[] = [
      <button key="1" type="button" onClick={() => undefined} />,
      <p key="2" style={{ color: "red" }} />,
      <Legacy key="3" />,
      <Ctx.Provider key="4" value={2}>
        <p />
      </Ctx.Provider>,
      <Later key="5" />,
      // eslint-disable-next-line @next/next/no-img-element -- refused before any image loads
      <img key="6" alt="">
        x
      </img>,
    ];
    for (const tree of unsupported)
      expect(() => staticMarkup(tree)).toThrow(/not supported on a static page/);
  });
});
