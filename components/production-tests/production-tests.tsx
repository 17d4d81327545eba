"use client";
/**
 * An app's "Production tests" tab: what a production test is and what happens after asking for
 * one, the request form (members who may write), and every test of the app with its state,
 * progress and report. In the sandbox the same flow runs as a rehearsal (operators can schedule
 * sandbox requests; sessions use the simulator), which the page says.
 */
import { FlaskConical } from "lucide-react";
import Link from "next/link";
import { useMemo } from "react";
import { useCurrentApp } from "@/components/apps/app-frame";
import { errorMessage } from "@/components/console/api";
import { useConsole } from "@/components/console/context";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FormError } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { useAppProviders, useProductionTests } from "./queries";
import { RequestForm } from "./request-form";
import { ProductionTestCard } from "./test-card";
import { QueryError } from "@/components/console/query-error";

function Explainer() {
  const { env } = useConsole();
  return (
    <Card title="What is a production test?">
      <div className="space-y-3 text-sm text-gray-800">
        <p>
          A production test is a live trial of this app with real people. You say which identity providers to
          test and how many successful verifications you need: each one is a <strong>stamp</strong>. Our
          operators turn the request into a <strong>challenge</strong> and invite end-users, who verify
          through this app with one of those providers.
        </p>
        <p>
          Every attempt counts as a <strong>participation</strong>, and each successful one claims a stamp.
          The test ends when all stamps are claimed or the challenge reaches its end date; the report shows
          how many people took part and how each provider did.
        </p>
        <h3 className="pt-1 text-base font-semibold text-gray-900">What happens next</h3>
        <ol className="list-decimal space-y-1 pl-5">
          <li>
            You request a test. It stays <strong>pending</strong> until an operator looks at it.
          </li>
          <li>
            An operator <strong>schedules</strong> it: it becomes a challenge with an end date. If it cannot
            run, the operator marks it <strong>failed</strong> and the reason appears here.
          </li>
          <li>
            While the challenge runs, people take part; you can too, with{" "}
            <strong>Start challenge session</strong>.
          </li>
          <li>Progress and the report update on this page as stamps are claimed.</li>
        </ol>
        {env === "sandbox" ? (
          <div
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950"
            data-testid="sandbox-rehearsal"
          >
            <p>
              <strong>Sandbox: a rehearsal.</strong> Production tests belong to production, where real people
              take part. Here you can try the whole flow: sandbox requests can be scheduled by operators,
              challenge sessions run on the simulator with test identities, and nobody real is invited.
            </p>
            <p className="mt-1">
              <Link className="font-semibold text-amber-950 underline" href="/console/production/apps">
                Go to your production apps
              </Link>{" "}
              to request a real test.
            </p>
          </div>
        ) : null}
      </div>
    </Card>
  );
}

export function ProductionTests() {
  const app = useCurrentApp();
  const { permissions } = useConsole();
  const tests = useProductionTests(app.clientId);
  const providers = useAppProviders(app.clientId);
  const providerName = useMemo(() => {
    const names = new Map((providers.data ?? []).map((p) => [p.id, p.name]));
    return (id: string) => names.get(id) ?? id;
  }, [providers.data]);

  return (
    <div className="space-y-6">
      <div className="grid gap-6 xl:grid-cols-2">
        <Explainer />
        {permissions.write ? (
          <RequestForm clientId={app.clientId} />
        ) : (
          <Card title="Request a production test">
            <p className="text-sm text-gray-700">
              Your role can follow this app&apos;s production tests but not request them or take part. Ask an
              admin or developer of the workspace.
            </p>
          </Card>
        )}
      </div>

      <section aria-labelledby="production-tests-heading" className="space-y-4">
        <h2 id="production-tests-heading" className="text-xl font-semibold text-gray-900">
          Your production tests
        </h2>
        {tests.isPending ? (
          <Loading label="Loading production tests" />
        ) : tests.isError && !tests.data ? (
          <QueryError error={tests.error} onRetry={() => tests.refetch()} />
        ) : tests.data.length === 0 ? (
          <EmptyState icon={<FlaskConical className="h-8 w-8" />} title="No production tests yet">
            {permissions.write
              ? "Request one with the form above; it appears here while an operator schedules it."
              : "Tests requested for this app appear here."}
          </EmptyState>
        ) : (
          <>
            {tests.isError ? <FormError message={`Refreshing failed: ${errorMessage(tests.error)}`} /> : null}
            <ul className="space-y-4">
              {tests.data.map((item) => (
                <li key={item.request.id}>
                  <ProductionTestCard
                    clientId={app.clientId}
                    item={item}
                    providers={providers.data}
                    providerName={providerName}
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}
