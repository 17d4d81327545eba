import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AuthorizationError, errorAnswer, errorRedirectUrl } from "./authorization-error";
import { checkResponseType } from "./check-response-type";
import {
  answerRedirectUrl,
  answerResponse,
  FORM_POST_CSP,
  FORM_POST_SCRIPT,
  formPostHtml,
  requestedResponseMode,
  storedResponseMode,
  type TAuthorizationAnswer,
} from "./form-post";
import { paramsFromSearch } from "./params";

const answer: TAuthorizationAnswer = {
  redirectUri: 'https://rp.example.com/cb?x=1&y="2"',
  params: [
    ["code", "abc"],
    ["state", `"><script>alert(1)</script>&'`],
    ["iss", "https://op.example.com/oidc/sandbox"],
  ],
  mode: "form_post",
};

const hiddenInputs = (html: string) =>
  [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]);

describe("form_post page", () => {
  it("posts every parameter to the redirect_uri, HTML-escaped", () => {
    const html = formPostHtml(answer);
    expect(html).toContain('<form method="post" action="https://rp.example.com/cb?x=1&amp;y=&quot;2&quot;">');
    expect(hiddenInputs(html)).toEqual([
      ["code", "abc"],
      ["state", "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#39;"],
      ["iss", "https://op.example.com/oidc/sandbox"],
    ]);
    expect(html).not.toContain("<script>alert");
    // the button for a browser without script
    expect(html).toMatch(/<button type="submit">Continue<\/button>/);
    // exactly one script: the one the policy allows by its hash
    const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toEqual([FORM_POST_SCRIPT]);
    const hash = createHash("sha256").update(scripts[0]!).digest("base64");
    expect(FORM_POST_CSP).toContain(`script-src 'sha256-${hash}'`);
    expect(FORM_POST_CSP).toContain("default-src 'none'");
    expect(FORM_POST_CSP).toContain("frame-ancestors 'none'");
  });

  it("is answered 200 with no-store and its policy; query answers are a 303 with the parameters", async () => {
    const res = answerResponse(answer);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("content-security-policy")).toBe(FORM_POST_CSP);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toBe(formPostHtml(answer));

    const query = answerResponse({ ...answer, mode: "query" });
    expect(query.status).toBe(303);
    expect(query.headers.get("cache-control")).toBe("no-store");
    const location = new URL(query.headers.get("location")!);
    expect(location.searchParams.get("x")).toBe("1");
    expect(location.searchParams.get("code")).toBe("abc");
    expect(location.searchParams.get("state")).toBe(answer.params[1]![1]);
    expect(location.toString()).toBe(answerRedirectUrl(answer));
  });
});

describe("response modes", () => {
  const params = (query: string) => paramsFromSearch(new URLSearchParams(query));
  const base = "response_type=code";

  it("accepts query and form_post, refuses the others as invalid_request", () => {
    expect(checkResponseType(params(base))).toBe("query");
    expect(checkResponseType(params(`${base}&response_mode=query`))).toBe("query");
    expect(checkResponseType(params(`${base}&response_mode=form_post`))).toBe("form_post");
    for (const mode of ["fragment", "jwt", "query.jwt", "form_post.jwt", "web_message"]) {
      expect(() => checkResponseType(params(`${base}&response_mode=${mode}`))).toThrow(
        expect.objectContaining({
          code: "invalid_request",
          message: expect.stringContaining("response_mode"),
        }),
      );
    }
  });

  it("answers in form_post only when asked once and exactly; a stored null is query", () => {
    expect(requestedResponseMode(params("response_mode=form_post"))).toBe("form_post");
    expect(requestedResponseMode(params("response_mode=fragment"))).toBe("query");
    expect(requestedResponseMode(params("response_mode=form_post&response_mode=form_post"))).toBe("query");
    expect(requestedResponseMode(params(""))).toBe("query");
    expect(storedResponseMode("form_post")).toBe("form_post");
    expect(storedResponseMode(null)).toBe("query");
    expect(storedResponseMode("query")).toBe("query");
  });

  it("errors carry error, error_description, state and iss in the requested mode", () => {
    const error = new AuthorizationError("access_denied", "no");
    const target = { redirectUri: "https://rp.example.com/cb", state: "s", issuer: "https://op" };
    const posted = errorAnswer(target, error, "form_post");
    expect(posted).toEqual({
      redirectUri: "https://rp.example.com/cb",
      params: [
        ["error", "access_denied"],
        ["error_description", "no"],
        ["state", "s"],
        ["iss", "https://op"],
      ],
      mode: "form_post",
    });
    expect(errorRedirectUrl(target, error)).toBe(
      "https://rp.example.com/cb?error=access_denied&error_description=no&state=s&iss=https%3A%2F%2Fop",
    );
    expect(errorAnswer({ ...target, state: null }, error).params.map(([n]) => n)).toEqual([
      "error",
      "error_description",
      "iss",
    ]);
  });
});
