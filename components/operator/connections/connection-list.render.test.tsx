/**
 * The Connections list renders (server-side, from a seeded query cache) twice over: a table for
 * wide screens and a card per provider below `md`, and each card carries what its row does — the
 * link to the connection page, the id, the production adapter (and the one connected through),
 * the state, the error rates of the last hour and day, the last error and when.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OperatorContextProvider } from "../context";
import { formatTime } from "../format";
import { ConnectionList } from "./connection-list";
import { connectionKeys, type TConnection } from "./queries";

const health = (signIns: number, failures: number) => ({
  signIns,
  failures,
  errorRate: signIns ? failures / signIns : null,
  medianLatencyMs: null,
  maxLatencyMs: null,
});

function connection(over: Partial<TConnection>): TConnection {
  return {
    providerId: "ch_swissid",
    providerName: "SwissID",
    productionAdapter: "oidc",
    state: "not_connected",
    connectionId: null,
    adapter: null,
    enabled: false,
    settings: null,
    secretsSet: [],
    lastError: null,
    lastErrorAt: null,
    lastSuccessAt: null,
    health: { lastHour: health(0, 0), lastDay: health(0, 0) },
    createdAt: null,
    updatedAt: null,
    ...over,
  };
}

const FAILING = connection({
  providerId: "de_eid",
  providerName: "German eID",
  productionAdapter: "oidc",
  adapter: "saml",
  state: "failing",
  connectionId: "conn_1",
  enabled: true,
  lastError: "token endpoint answered 503",
  lastErrorAt: "2026-03-04T05:06:00Z",
  health: { lastHour: health(8, 1), lastDay: health(40, 4) },
});

function render(connections: TConnection[]): string {
  const client = new QueryClient();
  client.setQueryData(connectionKeys.list("production"), connections);
  return renderToString(
    <QueryClientProvider client={client}>
      <OperatorContextProvider
        value={{
          env: "production",
          user: { id: "usr_1", email: "op@example.test", name: null },
          hasWorkspace: false,
        }}
      >
        <ConnectionList />
      </OperatorContextProvider>
    </QueryClientProvider>,
  ).replace(/<!-- -->/g, "");
}

/** The markup of the element that opens with `<tag … data-testid="testId"` up to its `</tag>`. */
function element(html: string, tag: string, testId: string): string {
  const start = html.lastIndexOf(`<${tag}`, html.indexOf(`data-testid="${testId}"`));
  expect(start, `<${tag} data-testid="${testId}">`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf(`</${tag}>`, start) + tag.length + 3);
}

describe("connection list", () => {
  const html = render([connection({}), FAILING]);

  it("shows the table from md up and a list of cards below it", () => {
    expect(html).toMatch(/<div[^>]*class="[^"]*\bhidden md:block\b[^"]*"[^>]*role="region"/);
    expect(html).toMatch(/<ul[^>]*aria-label="Provider connections, in catalog order"[^>]*md:hidden/);
    expect(html.match(/<tr data-testid="connection-/g)).toHaveLength(2);
    expect(html.match(/<li data-testid="connection-card-/g)).toHaveLength(2);
  });

  it("gives each card what its table row shows", () => {
    const row = element(html, "tr", "connection-de_eid");
    const card = element(html, "li", "connection-card-de_eid");
    for (const text of [
      'href="/operator/production/connections/de_eid"',
      ">German eID</a>",
      ">de_eid<",
      ">oidc<",
      ">saml<",
      'data-testid="connection-state">Failing<',
      "12.5 % of 8",
      "10 % of 40",
      "token endpoint answered 503",
      formatTime("2026-03-04T05:06:00Z"),
    ]) {
      expect(row, text).toContain(text);
      expect(card, text).toContain(text);
    }
    // named for what they are on a phone, where no column header says it
    for (const term of ["Production adapter", "Errors, last hour", "Errors, last day", "Last error"])
      expect(card).toContain(`<dt class="text-gray-700">${term}</dt>`);
  });

  it("shows a dash where a provider has no sign-ins and no error", () => {
    const card = element(html, "li", "connection-card-ch_swissid");
    expect(card).toContain('data-testid="connection-state">Not connected<');
    expect(card.match(/<dd[^>]*>—<\/dd>/g)).toHaveLength(3);
  });
});
