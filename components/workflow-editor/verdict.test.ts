import { describe, expect, it } from "vitest";
import { ApiRequestError } from "@/components/console/api";
import { blankDraft } from "./draft";
import type { TValidationDetail } from "./queries";
import { generalIssues, issuesByNode, verdictDetails } from "./verdict";

const DRAFT = blankDraft("Onboarding");
const detail = (path: string, message: string, nodeId?: string): TValidationDetail =>
  nodeId ? { path, message, nodeId } : { path, message };
const verdict = (details: TValidationDetail[]) => ({
  data: { valid: details.length === 0, details },
  isError: false,
  error: null,
});
const NONE = { data: undefined, isError: false, error: null };

describe("verdictDetails", () => {
  it("puts the refused save's details first and shows each path and message once", () => {
    const save = { draft: DRAFT, details: [detail("name", "is required")] };
    const details = verdictDetails(save, verdict([detail("name", "is required"), detail("x", "bad")]), DRAFT);
    expect(details).toEqual([detail("name", "is required"), detail("x", "bad")]);
  });

  it("drops the save's details once the draft has changed since", () => {
    const save = { draft: DRAFT, details: [detail("name", "is required")] };
    expect(verdictDetails(save, NONE, { ...DRAFT, name: "" })).toEqual([]);
  });

  it("names the node a path points into, by its index in the draft", () => {
    const details = verdictDetails(null, verdict([detail("nodes[1].next", "must not be set")]), DRAFT);
    expect(details).toEqual([detail("nodes[1].next", "must not be set", "response")]);
    // an index past the draft's nodes names none
    expect(verdictDetails(null, verdict([detail("nodes[7]", "gone")]), DRAFT)).toEqual([
      detail("nodes[7]", "gone"),
    ]);
  });

  it("takes the details of a body refused outright (400), and none of another failure", () => {
    const refused = new ApiRequestError(400, "VALIDATION_FAILED", "invalid", [
      detail("entryNodeId", "unknown"),
    ]);
    expect(verdictDetails(null, { data: undefined, isError: true, error: refused }, DRAFT)).toEqual([
      detail("entryNodeId", "unknown"),
    ]);
    const down = new ApiRequestError(503, "UNAVAILABLE", "down", [detail("entryNodeId", "unknown")]);
    expect(
      verdictDetails(null, { data: verdict([detail("x", "stale")]).data, isError: true, error: down }, DRAFT),
    ).toEqual([]);
  });
});

describe("issuesByNode and generalIssues", () => {
  const details = [
    detail("nodes[0].next", 'node "request": must point to a node', "request"),
    detail("nodes[0].config", 'node "request": bad config', "request"),
    detail("nodes[5]", "of a node since deleted", "gone"),
    detail("name", "is required"),
    detail("entryNodeId", "unknown"),
  ];

  it("groups the short messages by node of the draft", () => {
    expect([...issuesByNode(details, DRAFT.nodes)]).toEqual([
      ["request", ["must point to a node", "bad config"]],
    ]);
  });

  it("lists the rest but the name's for the workflow", () => {
    expect(generalIssues(details, DRAFT.nodes).map((d) => d.path)).toEqual(["nodes[5]", "entryNodeId"]);
  });
});
