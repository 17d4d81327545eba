/**
 * The simulator's controls: pick a test identity (each has its level of assurance), then approve,
 * decline, cancel or let the session expire. A plain form post: it works without JavaScript.
 */
import { Button } from "@/components/ui/button";
import type { TMessages } from "@/lib/hosted/i18n";

interface Props {
  verificationId: string;
  flow: string;
  identities: { id: string; description: string; loa: string }[];
  texts: TMessages["sim"];
}

// what the provider's stand-in can do, in the order shown
const ACTIONS = [
  { outcome: "success", text: "approve", testId: "sim-approve" },
  { outcome: "failure", text: "decline", testId: "sim-decline" },
  { outcome: "cancel", text: "cancel", testId: "sim-cancel" },
  { outcome: "expire", text: "expire", testId: "sim-expire" },
] as const;

export function SimulatorForm({ verificationId, flow, identities, texts }: Props) {
  return (
    <form method="post" action={`/sandbox/verify/${verificationId}/act`} className="space-y-4">
      <input type="hidden" name="flow" value={flow} />
      <fieldset className="space-y-2">
        <legend className="mb-1 font-semibold">{texts.identity}</legend>
        {identities.map((identity, index) => (
          <label
            key={identity.id}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-gray-300 p-3 has-checked:border-blue-700 has-checked:bg-blue-50"
          >
            <input
              type="radio"
              name="identity"
              value={identity.id}
              defaultChecked={index === 0}
              className="mt-1"
            />
            <span>
              <span className="block font-medium">{identity.description}</span>
              <span className="block text-sm text-gray-700">
                {identity.id} · {identity.loa}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid gap-2 sm:grid-cols-2">
        {ACTIONS.map(({ outcome, text, testId }) => (
          <Button
            key={outcome}
            type="submit"
            name="outcome"
            value={outcome}
            variant={outcome === "success" ? "primary" : "secondary"}
            size="lg"
            className="w-full"
            data-testid={testId}
          >
            {texts[text]}
          </Button>
        ))}
      </div>
    </form>
  );
}
