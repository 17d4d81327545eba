/**
 * The labelled controls wire their label, description and error to the control (ids,
 * aria-describedby, aria-invalid), whichever control they wrap, and pass every other prop on.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Checkbox, Input, Select, Textarea } from "./field";

describe("labelled controls", () => {
  it("names the description and the error in aria-describedby, and marks the control invalid", () => {
    const html = renderToStaticMarkup(
      <Input id="name" label="Name" description="Shown to users." error="Too long" required maxLength={5} />,
    );
    expect(html).toContain('<label for="name"');
    expect(html).toMatch(
      /<input id="name" required="" aria-invalid="true" aria-describedby="name-description name-error"/,
    );
    expect(html).toContain('maxLength="5"');
    expect(html).toContain('<p id="name-description" class="text-sm text-gray-600">Shown to users.</p>');
    expect(html).toContain(
      '<p id="name-error" class="text-sm font-medium text-red-700" role="alert">Too long</p>',
    );
    expect(html).toContain("border-red-600");
    expect(html).toContain('<span class="text-sm text-red-700" aria-hidden="true">*</span>');
  });

  it("leaves the aria wiring out when there is nothing to point at", () => {
    const html = renderToStaticMarkup(<Textarea id="notes" label="Notes" />);
    expect(html).not.toContain("aria-describedby");
    expect(html).not.toContain("aria-invalid");
    expect(html).not.toContain('role="alert"');
    expect(html).toContain("border-gray-400");
    expect(html).toMatch(/<textarea id="notes"/);
  });

  it("wires a select and keeps its options", () => {
    const html = renderToStaticMarkup(
      <Select id="role" label="Role" error="Pick one" defaultValue="b">
        <option value="a">A</option>
        <option value="b">B</option>
      </Select>,
    );
    expect(html).toMatch(/<select id="role" aria-invalid="true" aria-describedby="role-error"/);
    expect(html).toContain('<option value="b" selected="">B</option>');
  });

  it("a caller's own aria-describedby wins, as before", () => {
    const html = renderToStaticMarkup(<Input id="x" label="X" error="Bad" aria-describedby="elsewhere" />);
    expect(html).toContain('aria-describedby="elsewhere"');
  });

  it("indents a checkbox's description and error under its label", () => {
    const html = renderToStaticMarkup(
      <Checkbox id="ok" label="Agree" description="Required to continue." error="Tick it" />,
    );
    expect(html).toMatch(
      /<input id="ok" type="checkbox" aria-invalid="true" aria-describedby="ok-description ok-error"/,
    );
    expect(html).toContain('<p id="ok-description" class="ml-6 text-sm text-gray-600">');
    expect(html).toContain('<p id="ok-error" class="ml-6 text-sm font-medium text-red-700" role="alert">');
  });
});
