import { describe, expect, it } from "vitest";
import { authorLabel, casesSummary, nodeLabel, pathHighlight, type TRegressionCase } from "./queries";

describe("pathHighlight", () => {
  it("marks the path passed and its last node failed (with the reason) when the outcome is failed", () => {
    expect(
      pathHighlight({
        outcome: "failed",
        reasonCode: "loa_too_low",
        path: ["request", "verification", "min-loa"],
      }),
    ).toEqual({
      path: ["request", "verification", "min-loa"],
      nodes: {
        request: { result: "passed" },
        verification: { result: "passed" },
        "min-loa": { result: "failed", reason: "loa_too_low" },
      },
    });
  });

  it("marks every node passed on a completed path", () => {
    expect(pathHighlight({ outcome: "completed", path: ["request", "response"] }).nodes).toEqual({
      request: { result: "passed" },
      response: { result: "passed" },
    });
  });
});

describe("casesSummary", () => {
  const kase = (id: string, passed: boolean): TRegressionCase => ({
    id,
    name: id,
    providerId: "passport",
    identityId: "passport-low-loa",
    expectedOutcome: "failed",
    result: { outcome: passed ? "failed" : "completed", passed },
  });

  it("counts passing cases and names the failing ones", () => {
    const summary = casesSummary([kase("a", true), kase("b", false), kase("c", true)]);
    expect(summary.passing).toBe(2);
    expect(summary.total).toBe(3);
    expect(summary.failing.map((c) => c.id)).toEqual(["b"]);
  });
});

describe("labels", () => {
  it("names authors by kind", () => {
    expect(authorLabel({ type: "user", id: "usr_1", display: "ann@example.test" })).toBe("ann@example.test");
    expect(authorLabel({ type: "api_key", id: "key_1", display: "CI" })).toBe("API key CI");
    expect(authorLabel({ type: "system", id: null, display: null })).toBe("System");
    expect(authorLabel(undefined)).toBe("Unknown");
  });

  it("adds the node type when the draft has the node", () => {
    expect(nodeLabel([{ id: "min-loa", type: "check-min-loa" }], "min-loa")).toBe("min-loa (check-min-loa)");
    expect(nodeLabel([], "gone")).toBe("gone");
  });
});
