import { redirect } from "next/navigation";

export default function OperatorIndex() {
  redirect("/operator/sandbox/activations");
}
