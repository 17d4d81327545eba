import { describe, expect, it } from "vitest";
import { titleRoute } from "./page-title";
import { consoleTitle } from "./titles";

describe("console page titles", () => {
  it("joins the page, the app, the environment and the product, leaving out what is unknown", () => {
    expect(consoleTitle("Webhooks", "Checkout", "Sandbox")).toBe(
      "Webhooks · Checkout · Sandbox · Identity verification console",
    );
    expect(consoleTitle("Webhooks", null, undefined, "", "Production")).toBe(
      "Webhooks · Production · Identity verification console",
    );
  });

  it("names the page of every console path, with the app and workflow it shows", () => {
    expect(titleRoute("/console/sandbox/dashboard")).toEqual({ page: "Dashboard" });
    expect(titleRoute("/console/sandbox/requests")).toEqual({ page: "API requests" });
    expect(titleRoute("/console/production/verifications/vrf_1")).toEqual({ page: "Verification" });
    expect(titleRoute("/console/sandbox/apps/app_1")).toEqual({ page: "Overview", clientId: "app_1" });
    expect(titleRoute("/console/sandbox/apps/app_1/webhooks")).toEqual({
      page: "Webhooks",
      clientId: "app_1",
    });
    expect(titleRoute("/console/sandbox/apps/app_1/production-tests")).toEqual({
      page: "Production tests",
      clientId: "app_1",
    });
    expect(titleRoute("/console/sandbox/apps/app_1/webhooks/del_1")).toEqual({
      page: "Webhook delivery",
      clientId: "app_1",
    });
    expect(titleRoute("/console/sandbox/apps/app_1/workflows/wf_1")).toEqual({
      page: "Workflow editor",
      clientId: "app_1",
      workflowId: "wf_1",
    });
    expect(titleRoute("/console/sandbox/apps/app_1/workflows/new")).toEqual({
      page: "Workflow editor",
      clientId: "app_1",
      workflowId: undefined,
    });
  });

  it("leaves unknown paths to the server's title", () => {
    expect(titleRoute("/console/sandbox/nowhere")).toBeNull();
    expect(titleRoute("/console/sandbox/team/extra")).toBeNull();
    expect(titleRoute("/console/sandbox/apps/app_1/unknown")).toBeNull();
    expect(titleRoute("/operator/sandbox/activations")).toBeNull();
  });
});
