import { describe, expect, it } from "vitest";
import { leaveTarget } from "./use-leave-guard";

const HERE = {
  href: "https://console.example.test/console/sandbox/apps/app_1/workflows/wf_1",
  origin: "https://console.example.test",
  pathname: "/console/sandbox/apps/app_1/workflows/wf_1",
};

/** A click on an element inside `<a href=…>` (with the link's attributes), or on no link. */
function click(href: string | null, attrs: { target?: string; download?: boolean } = {}, keys = {}) {
  const link =
    href === null ? null : { href, target: attrs.target ?? "", hasAttribute: () => !!attrs.download };
  return {
    defaultPrevented: false,
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    target: {
      closest: (selector: string) => (selector === "a[href]" ? link : null),
    } as unknown as EventTarget,
    ...keys,
  };
}

describe("leaveTarget", () => {
  it("holds a plain click on a link to another page of the site, with its query and hash", () => {
    expect(leaveTarget(click("/console/sandbox/apps/app_1/workflows?x=1#top"), HERE)).toBe(
      "/console/sandbox/apps/app_1/workflows?x=1#top",
    );
    expect(leaveTarget(click("https://console.example.test/console/sandbox/dashboard"), HERE)).toBe(
      "/console/sandbox/dashboard",
    );
  });

  it("leaves the same page, other sites, new tabs and downloads to the browser", () => {
    expect(leaveTarget(click(`${HERE.pathname}#node`), HERE)).toBeNull();
    expect(leaveTarget(click("https://elsewhere.example.test/"), HERE)).toBeNull();
    expect(leaveTarget(click("/console/sandbox/dashboard", { target: "_blank" }), HERE)).toBeNull();
    expect(leaveTarget(click("/console/sandbox/export.csv", { download: true }), HERE)).toBeNull();
    expect(leaveTarget(click(null), HERE)).toBeNull();
  });

  it("leaves modified, non-primary and already handled clicks alone", () => {
    for (const keys of [
      { metaKey: true },
      { ctrlKey: true },
      { shiftKey: true },
      { altKey: true },
      { button: 1 },
      { defaultPrevented: true },
    ])
      expect(leaveTarget(click("/console/sandbox/dashboard", {}, keys), HERE)).toBeNull();
  });
});
