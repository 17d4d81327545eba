export default function Home() {
  return (
    <main>
      <h1>Relying party</h1>
      <p>Sign in at /api/auth/signin.</p>
    </main>
  );
}
