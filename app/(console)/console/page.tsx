import { redirect } from "next/navigation";

// /console → the sandbox dashboard (the environment is always part of a console URL)
export default function ConsoleIndex() {
  redirect("/console/sandbox/dashboard");
}
