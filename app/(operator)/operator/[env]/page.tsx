import { notFound, redirect } from "next/navigation";
import { parseEnvironment } from "@/lib/environments";

export default async function OperatorEnvironmentIndex({ params }: { params: Promise<{ env: string }> }) {
  const env = parseEnvironment((await params).env);
  if (!env) notFound();
  redirect(`/operator/${env}/activations`);
}
