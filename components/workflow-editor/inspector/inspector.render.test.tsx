/**
 * The inspector renders (server-side, no browser) every kind of form a node of the catalog
 * asks for, with the API's messages on their fields, and nothing editable when read only.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NODE_TYPE_DEFINITIONS } from "@/lib/workflows/node-types";
import type { TDraft } from "../types";
import type { TInspectorProps } from "./fields";
import { Inspector } from "./inspector";

const DRAFT: TDraft = {
  name: "Onboarding",
  entryNodeId: "request",
  nodes: [
    { id: "request", type: "request", next: "verification" },
    {
      id: "verification",
      type: "verification",
      next: "adults",
      config: {
        channel: "api",
        claims: ["birthdate"],
        providers: { passport: { enabled: false }, gone: {} },
      },
    },
    {
      id: "adults",
      type: "evaluate",
      next: "response",
      config: { conditions: [{ source: "claim", field: "birthdate", op: "age_gte", value: 18 }] },
    },
    {
      id: "branch",
      type: "if",
      then: "response",
      config: { condition: { source: "loa", op: "in", value: [2, 3] } },
    },
    { id: "response", type: "response" },
  ],
  positions: {},
};

function render(props: Partial<TInspectorProps>): string {
  const all: TInspectorProps = {
    draft: DRAFT,
    nodeId: null,
    catalog: [...NODE_TYPE_DEFINITIONS],
    providers: [{ id: "passport", name: "Passport (NFC)", enabled: true }],
    details: [],
    readOnly: false,
    onEdit: () => {},
    onSelectNode: () => {},
    ...props,
  };
  // text split by React's SSR markers reads as one string
  return renderToString(<Inspector {...all} />).replace(/<!-- -->/g, "");
}

describe("Inspector", () => {
  it("with nothing selected, offers the request nodes as the entry", () => {
    const html = render({
      details: [{ path: "entryNodeId", message: 'node "request": is not a request node' }],
    });
    expect(html).toContain("Entry node");
    expect(html).toContain("request (Request)");
    expect(html).not.toContain("verification (Verification)");
    expect(html).toContain("is not a request node");
    expect(html).not.toContain('node "request"');
  });

  it("shows a verification node's fields: enum, claim checkboxes, sub-form, the app's providers", () => {
    const html = render({
      nodeId: "verification",
      details: [{ path: "nodes[1].config.claims", message: 'node "verification": at least one claim' }],
    });
    expect(html).toContain('aria-label="Verification verification"');
    expect(html).toContain("Node id");
    expect(html).toContain("Next node");
    expect(html).toContain("Channel");
    expect(html).toMatch(/<legend[^>]*>Claims<\/legend>/);
    expect(html).toMatch(/<legend[^>]*>Branding<\/legend>/);
    expect(html).toContain("Use the app&#x27;s branding");
    expect(html).toContain("Passport (NFC) (passport)");
    expect(html).toContain("not an activated provider of the app");
    expect(html).toContain("Remove gone");
    expect(html).toContain("Problems of this node");
    expect(html).toContain("at least one claim");
  });

  it("shows conditions with their source, claim, operator and value pickers", () => {
    const evaluate = render({ nodeId: "adults" });
    expect(evaluate).toMatch(/<legend[^>]*>Condition 1<\/legend>/);
    expect(evaluate).toContain("Age (years)");
    expect(evaluate).toContain("Remove condition 1");
    expect(evaluate).toContain("Add condition");
    const branch = render({ nodeId: "branch" });
    expect(branch).toContain("Then (when the condition holds)");
    expect(branch).toContain("Else (when the condition does not hold)");
    expect(branch).toMatch(/<legend[^>]*>Levels<\/legend>/);
  });

  it("read only: the form is disabled and offers no add or remove", () => {
    const html = render({ nodeId: "adults", readOnly: true });
    expect(html).toMatch(/<fieldset disabled=""/);
    expect(html).not.toContain("Add condition");
    expect(html).not.toContain("Remove condition 1");
  });
});
