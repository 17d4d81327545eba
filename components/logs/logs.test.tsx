/** The log lists' shared controls and cells render what the lists rendered inline before. */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { logColumns, RequestId, TimeCell } from "./cells";
import { FilterByButton } from "./filter-by-button";
import { CodeFilter, SelectFilter } from "./filters";

const options = [
  { value: "a", label: "Alpha" },
  { value: "b", label: "Beta" },
];

function optionsOf(html: string): string[] {
  return [...html.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => `${m[1]}=${m[2]}`);
}

describe("SelectFilter", () => {
  it("offers the no-filter choice first, then the options", () => {
    const html = renderToStaticMarkup(
      <SelectFilter label="Kind" value="" onChange={() => {}} options={options} allLabel="All kinds" />,
    );
    expect(optionsOf(html)).toEqual(["=All kinds", "a=Alpha", "b=Beta"]);
    expect(html).toContain(">Kind</label>");
  });

  it("has no no-filter choice when the filter has a default", () => {
    const html = renderToStaticMarkup(
      <SelectFilter label="Kind" value="a" onChange={() => {}} options={options} />,
    );
    expect(optionsOf(html)).toEqual(["a=Alpha", "b=Beta"]);
  });

  it("keeps an unknown value selectable only when asked to", () => {
    const props = { label: "Kind", value: "zzz", onChange: () => {}, options, allLabel: "All kinds" };
    expect(optionsOf(renderToStaticMarkup(<SelectFilter {...props} keepUnknown />))).toEqual([
      "=All kinds",
      "a=Alpha",
      "b=Beta",
      "zzz=zzz",
    ]);
    expect(optionsOf(renderToStaticMarkup(<SelectFilter {...props} />))).toHaveLength(3);
    // a known value is not listed twice
    expect(optionsOf(renderToStaticMarkup(<SelectFilter {...props} value="b" keepUnknown />))).toHaveLength(
      3,
    );
  });

  it("shows the API's verdict on the filter", () => {
    const html = renderToStaticMarkup(
      <SelectFilter label="Kind" value="" onChange={() => {}} options={options} error="Not a kind" />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain("Not a kind");
  });
});

describe("CodeFilter", () => {
  it("turns spell check and autofill off, and lets the caller override", () => {
    const html = renderToStaticMarkup(<CodeFilter label="Actor" value="usr_1" onCommit={() => {}} />);
    expect(html).toContain('spellCheck="false"');
    expect(html).toContain('autoComplete="off"');
    expect(html).toContain('value="usr_1"');
    expect(
      renderToStaticMarkup(<CodeFilter label="A" value="" onCommit={() => {}} autoComplete="on" />),
    ).toContain('autoComplete="on"');
  });
});

describe("log cells", () => {
  it("TimeCell shows the short time with the full one as its title, and what goes below", () => {
    const html = renderToStaticMarkup(
      <table>
        <tbody>
          <tr>
            <TimeCell at="2026-03-04T05:06:07.000Z">
              <span>below</span>
            </TimeCell>
          </tr>
        </tbody>
      </table>,
    );
    expect(html).toMatch(
      /<td class="[^"]*px-3 whitespace-nowrap[^"]*"><time dateTime="2026-03-04T05:06:07.000Z" title="[^"]+">[^<]+<\/time><span>below<\/span><\/td>/,
    );
  });

  it("RequestId shows the ID as code, or a dash", () => {
    expect(renderToStaticMarkup(<RequestId id="req_1" />)).toBe(
      '<code class="font-mono text-xs break-all">req_1</code>',
    );
    expect(renderToStaticMarkup(<RequestId id={null} />)).toBe("—");
  });

  it("logColumns gives a padded header cell per name and their count", () => {
    const { head, columns } = logColumns(["Time", "Action"]);
    expect(columns).toBe(2);
    const html = renderToStaticMarkup(
      <table>
        <thead>
          <tr>{head}</tr>
        </thead>
      </table>,
    );
    expect(
      [...html.matchAll(/<th scope="col" class="[^"]*px-3[^"]*">([^<]*)<\/th>/g)].map((m) => m[1]),
    ).toEqual(["Time", "Action"]);
  });
});

describe("FilterByButton", () => {
  it("says what pressing it does, as its title and to screen readers", () => {
    const html = renderToStaticMarkup(
      <FilterByButton onClick={() => {}} hint="show only this actor's entries" className="text-xs">
        usr_1
      </FilterByButton>,
    );
    expect(html).toContain('type="button"');
    expect(html).toContain('title="Show only this actor&#x27;s entries"');
    expect(html).toContain('usr_1<span class="sr-only"> (show only this actor&#x27;s entries)</span>');
    expect(html).toMatch(/class="[^"]*font-mono[^"]*text-xs[^"]*"/);
  });
});
