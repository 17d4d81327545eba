/**
 * React elements → static HTML, for the pages a route handler answers itself (the OpenID
 * Provider's picker and error pages: their status is 400, 404, 429… and only a route handler can
 * send that; a Next.js page is 200 or 404). Next.js refuses react-dom/server inside route
 * handlers, so this renders the small subset those pages use, with the markup
 * react-dom/server's renderToStaticMarkup gives for it (static-markup.test.tsx compares them):
 * - host elements, text, numbers, arrays, fragments, and function components without hooks;
 * - attributes: strings, numbers, `data-*`/`aria-*` booleans as "true"/"false", the HTML boolean
 *   attributes, `className`/`htmlFor`/`httpEquiv`, `dangerouslySetInnerHTML`;
 * - anything else (hooks, classes, context, async or client components, event handlers, style
 *   objects) throws: a static page cannot honour it, and a silent drop would ship a broken page.
 */
import { Fragment, isValidElement, type ReactElement, type ReactNode } from "react";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#x27;",
};

/** Text and attribute values, escaped as React escapes them. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

const BOOLEAN_ATTRIBUTES = new Set(["hidden", "disabled", "required", "checked", "selected", "open"]);

const ATTRIBUTE_NAMES: Record<string, string> = {
  className: "class",
  htmlFor: "for",
  httpEquiv: "http-equiv",
};

const SKIPPED_PROPS = new Set(["children", "key", "ref", "dangerouslySetInnerHTML"]);

function unsupported(what: string): never {
  throw new Error(`static markup: ${what} is not supported on a static page`);
}

function attribute(tag: string, name: string, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (/^on[A-Z]/.test(name) || typeof value === "function")
    unsupported(`the event handler ${name} on <${tag}>`);
  if (name === "style") unsupported(`a style object on <${tag}>`);
  const html = ATTRIBUTE_NAMES[name] ?? name;
  if (!/^[a-zA-Z][a-zA-Z0-9:_.-]*$/.test(html)) unsupported(`the attribute name ${JSON.stringify(name)}`);
  if (typeof value === "boolean") {
    if (name.startsWith("data-") || name.startsWith("aria-")) return ` ${html}="${value}"`;
    if (BOOLEAN_ATTRIBUTES.has(name)) return value ? ` ${html}=""` : "";
    unsupported(`the boolean value of ${name} on <${tag}>`);
  }
  if (typeof value === "string" || typeof value === "number")
    return ` ${html}="${escapeHtml(String(value))}"`;
  return unsupported(`a ${typeof value} value of ${name} on <${tag}>`);
}

type TProps = Record<string, unknown> & { children?: ReactNode };

function hostElement(tag: string, props: TProps): string {
  if (!/^[a-z][a-z0-9-]*$/.test(tag)) unsupported(`the element <${tag}>`);
  let attributes = "";
  for (const [name, value] of Object.entries(props)) {
    if (!SKIPPED_PROPS.has(name)) attributes += attribute(tag, name, value);
  }
  if (VOID_ELEMENTS.has(tag)) {
    if (props.children !== undefined && props.children !== null) unsupported(`children of <${tag}>`);
    return `<${tag}${attributes}/>`;
  }
  const inner = props.dangerouslySetInnerHTML;
  let content: string;
  if (inner !== undefined && inner !== null) {
    const html = typeof inner === "object" && "__html" in inner ? inner.__html : undefined;
    if (typeof html !== "string") unsupported(`dangerouslySetInnerHTML without __html on <${tag}>`);
    content = html;
  } else {
    content = staticMarkup(props.children);
  }
  return `<${tag}${attributes}>${content}</${tag}>`;
}

function isClass(type: object): boolean {
  const prototype: unknown = "prototype" in type ? type.prototype : undefined;
  return typeof prototype === "object" && prototype !== null && "isReactComponent" in prototype;
}

function element(node: ReactElement<TProps>): string {
  const { type, props } = node;
  if (typeof type === "string") return hostElement(type, props);
  if (type === Fragment) return staticMarkup(props.children);
  if (typeof type === "function" && !isClass(type)) {
    // a function component: called with its props, as React calls it (no hooks, see above)
    const rendered: ReactNode = Reflect.apply(type, undefined, [props]);
    if (rendered instanceof Promise) unsupported(`the async component ${type.name}`);
    return staticMarkup(rendered);
  }
  return unsupported("this kind of element (a class, context, memo, lazy, suspense or client component)");
}

/** The HTML of `node` (no doctype: the caller writes the document around it). */
export function staticMarkup(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === "boolean") return "";
  if (typeof node === "string") return escapeHtml(node);
  if (typeof node === "number" || typeof node === "bigint") return String(node);
  if (Array.isArray(node)) return node.map((child: ReactNode) => staticMarkup(child)).join("");
  if (isValidElement<TProps>(node)) return element(node);
  if (node instanceof Promise) return unsupported("a promise");
  if (Symbol.iterator in node) return Array.from(node, (child) => staticMarkup(child)).join("");
  return unsupported(`the node ${String(node)}`);
}
