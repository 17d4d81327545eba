// Types of security-headers.mjs (plain JavaScript, because next.config.mjs imports it).
export declare const END_USER_HEADERS: Readonly<{
  "Cache-Control": string;
  "Referrer-Policy": string;
  "X-Content-Type-Options": string;
  "X-Frame-Options": string;
}>;
export declare const PAGE_HEADERS: Readonly<{
  "Cache-Control": string;
  "Referrer-Policy": string;
  "X-Content-Type-Options": string;
  "X-Frame-Options": string;
  "Permissions-Policy": string;
}>;
export declare const HANDLER_CSP: string;
export declare function nextPageCsp(nonce: string): string;
export declare function staticPageCsp(styleSha256: string): string;
export declare function nextConfigHeaders(
  headers: Readonly<Record<string, string>>,
): { key: string; value: string }[];
