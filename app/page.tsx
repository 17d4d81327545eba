export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Identity verification broker</h1>
      <p className="mt-2 text-gray-600">The service is running.</p>
    </main>
  );
}
