import { Card } from "@/components/ui/card";

export default function Home() {
  const base = process.env.PUBLIC_URL ?? "";
  return (
    <main className="mx-auto max-w-2xl space-y-6 p-8">
      <header>
        <h1 className="text-2xl font-semibold text-gray-900">Identity verification broker</h1>
        <p className="mt-2 text-gray-600">
          Verify electronic identities across providers and countries through one REST API and one OpenID
          Connect sign-in.
        </p>
      </header>
      <Card title="API endpoints">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="font-medium text-gray-700">Sandbox</dt>
          <dd>
            <code>{base}/api/sandbox/v1</code>
          </dd>
          <dt className="font-medium text-gray-700">Production</dt>
          <dd>
            <code>{base}/api/production/v1</code>
          </dd>
        </dl>
      </Card>
      <p className="text-sm text-gray-500">The management console is coming here; use the API meanwhile.</p>
    </main>
  );
}
