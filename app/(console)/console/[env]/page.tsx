import { redirect } from "next/navigation";

export default async function EnvironmentIndex({ params }: { params: Promise<{ env: string }> }) {
  redirect(`/console/${(await params).env}/dashboard`);
}
