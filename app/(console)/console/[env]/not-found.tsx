import Link from "next/link";

// A console address that names no record (for example an app of the other environment).
export default function ConsoleNotFound() {
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-gray-700">This page or record does not exist in this environment.</p>
      <Link href="/console" className="font-semibold text-blue-800 underline">
        Back to the dashboard
      </Link>
    </div>
  );
}
