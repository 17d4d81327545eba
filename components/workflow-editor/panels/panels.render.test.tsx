/**
 * The panels render (server-side, from a seeded query cache) without a browser: every state the
 * reads can be in shows something sensible and nothing throws.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConsoleContextProvider, type ConsoleInfo } from "@/components/console/context";
import { ToastProvider } from "@/components/ui/toast";
import { workflowKeys } from "../queries";
import type { TDraft } from "../types";
import { HistoryPanel } from "./history-panel";
import { panelKeys, stableRunKey } from "./queries";
import { RegressionSummary, TestRunPanel } from "./test-run-panel";
import { WhatIfPanel } from "./what-if-panel";

const V1: TDraft = {
  name: "Onboarding",
  entryNodeId: "request",
  nodes: [
    { id: "request", type: "request", next: "verification" },
    {
      id: "verification",
      type: "verification",
      next: "response",
      config: { providers: { passport: { enabled: true } } },
    },
    { id: "response", type: "response" },
  ],
  positions: {},
};
const DRAFT: TDraft = {
  ...V1,
  nodes: [
    V1.nodes[0]!,
    { ...V1.nodes[1]!, next: "min-loa" },
    { id: "min-loa", type: "check-min-loa", next: "response", config: { minLoa: 2 } },
    V1.nodes[2]!,
  ],
};

function info(env: "sandbox" | "production", write = true): ConsoleInfo {
  return {
    env,
    user: { id: "usr_1", email: "ann@example.test", name: null },
    workspace: { id: "ws_1", name: "WS" },
    role: write ? "owner" : "viewer",
    permissions: { write, credentials: write, personal_data: write, team: write, team_owner: write },
    memberships: [],
    isOperator: false,
  };
}

function render(
  node: ReactNode,
  client: QueryClient,
  env: "sandbox" | "production" = "sandbox",
  write = true,
) {
  // text split by React's SSR markers reads as one string
  return renderToString(
    <QueryClientProvider client={client}>
      <ConsoleContextProvider value={info(env, write)}>
        <ToastProvider>{node}</ToastProvider>
      </ConsoleContextProvider>
    </QueryClientProvider>,
  ).replace(/<!-- -->/g, "");
}

function seeded(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(workflowKeys.providers("sandbox", "app_1"), [
    { id: "passport", name: "Passport (NFC)", enabled: true, isActive: true, status: "activated" },
  ]);
  client.setQueryData(panelKeys.identities("sandbox", "passport"), [
    { id: "passport-anna-eriksson", scenario: "success", description: "Anna", loa: 2, claims: {} },
    { id: "passport-low-loa", scenario: "low_loa", description: "Low", loa: 1, claims: {} },
  ]);
  const author = { type: "user", id: "usr_1", display: "ann@example.test" };
  client.setQueryData(panelKeys.versions("sandbox", "app_1", "wf_1", 0), {
    data: [
      { version: 2, name: "Onboarding", nodeCount: 4, createdAt: "2026-01-02T00:00:00Z", author },
      { version: 1, name: "Onboarding", nodeCount: 3, createdAt: "2026-01-01T00:00:00Z", author },
    ],
    total: 2,
    limit: 20,
    offset: 0,
    hasMore: false,
  });
  client.setQueryData(panelKeys.version("sandbox", "app_1", "wf_1", 2), {
    ...V1,
    version: 2,
    createdAt: "2026-01-02T00:00:00Z",
    author,
  });
  const kase = {
    id: "case_1",
    name: "Low LoA is refused",
    providerId: "passport",
    identityId: "passport-low-loa",
    expectedOutcome: "failed",
    result: { outcome: "completed", passed: false },
  };
  client.setQueryData(panelKeys.cases("sandbox", "app_1", "wf_1"), [kase]);
  client.setQueryData(panelKeys.casesRun("sandbox", "app_1", "wf_1", stableRunKey(DRAFT)), [
    { ...kase, result: { outcome: "failed", reasonCode: "loa_too_low", passed: true } },
  ]);
  return client;
}

const props = {
  clientId: "app_1",
  workflowId: "wf_1",
  draft: DRAFT,
  onHighlight: () => {},
  onLoadDraft: () => {},
};

describe("panels render", () => {
  it("Test run: providers, identities, cases on the draft and the sandbox session", () => {
    const html = render(<TestRunPanel {...props} />, seeded());
    expect(html).toContain("Passport (NFC)");
    expect(html).toContain("passport-low-loa");
    expect(html).toContain("Run test");
    expect(html).toContain("Low LoA is refused");
    expect(html).toContain("1/1 cases pass");
    expect(html).toContain("Start a sandbox session");
  });

  it("Test run in production says it is a sandbox feature; the summary is empty", () => {
    expect(render(<TestRunPanel {...props} />, new QueryClient(), "production")).toContain(
      "Test runs are a sandbox feature",
    );
    expect(render(<RegressionSummary {...props} />, seeded(), "production")).not.toContain(
      "regression-summary",
    );
  });

  it("RegressionSummary: n/m cases pass", () => {
    expect(render(<RegressionSummary {...props} />, seeded())).toContain("1/1 cases pass");
  });

  it("History: versions, the diff of the latest version against the draft, restore for writers only", () => {
    const html = render(<HistoryPanel {...props} />, seeded());
    expect(html).toContain("Version 2");
    expect(html).toContain("Latest");
    expect(html).toContain("1 added, 0 removed, 1 changed");
    expect(html).toContain("Restore this version");
    expect(render(<HistoryPanel {...props} />, seeded(), "sandbox", false)).not.toContain(
      "Restore this version",
    );
  });

  it("What-if: the form", () => {
    expect(render(<WhatIfPanel {...props} />, new QueryClient())).toContain("Run what-if");
  });

  it("loading states render while nothing is cached", () => {
    const html = render(<HistoryPanel {...props} />, new QueryClient());
    expect(html).toContain("Loading the versions");
    expect(render(<TestRunPanel {...props} />, new QueryClient())).toContain("Loading the app");
  });
});
