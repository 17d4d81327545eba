/**
 * The 404 page of a URL no route matches. The app has one root layout per route group
 * ((console), and the hosted and simulator pages at their [id] segments) and no app/layout.tsx,
 * so there is no layout to compose an app-wide not-found page from; Next.js renders this file
 * (experimental.globalNotFound in next.config.mjs) as a whole document instead. English, static:
 * it does not know which surface was meant.
 */
import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Page not found",
  description: "The page you asked for does not exist.",
};

export default function GlobalNotFound() {
  return (
    <html lang="en">
      <body className="bg-gray-50 text-gray-900 antialiased">
        <main className="mx-auto max-w-xl space-y-2 px-4 py-16">
          <p className="text-sm font-semibold text-gray-700">404</p>
          <h1 className="text-xl font-semibold">Page not found</h1>
          <p>The page you asked for does not exist. Check the address, or go back to where you came from.</p>
        </main>
      </body>
    </html>
  );
}
