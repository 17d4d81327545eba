"use client";
/**
 * The dashboard's charts. Each is a <figure> whose caption names it and whose numbers are in a
 * real table: visually hidden (read by screen readers) unless "Show data table" is pressed. The
 * drawing itself is hidden from assistive technology, which reads the table instead.
 */
import { Table2 } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatSeconds, percent } from "@/components/verifications/format";
import type { TVerificationStats } from "./queries";

export function ChartFigure({
  title,
  summary,
  chart,
  table,
  legend,
}: {
  title: string;
  summary?: ReactNode;
  chart: ReactNode;
  table: ReactNode;
  legend?: ReactNode;
}) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  return (
    <figure className="min-w-0 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <figcaption className="min-w-0">
          <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
          {summary ? <p className="text-sm text-gray-700">{summary}</p> : null}
        </figcaption>
        <Button
          variant="secondary"
          size="sm"
          icon={<Table2 aria-hidden className="h-4 w-4" />}
          aria-expanded={showTable}
          aria-controls={tableId}
          onClick={() => setShowTable((s) => !s)}
        >
          {showTable ? "Hide data table" : "Show data table"}
        </Button>
      </div>
      <div aria-hidden="true" data-testid="chart">
        {chart}
        {legend}
      </div>
      <div
        id={tableId}
        className={showTable ? "mt-4 overflow-x-auto rounded-md border border-gray-200" : "sr-only"}
        {...(showTable ? { tabIndex: 0, role: "region", "aria-label": `${title}: data` } : {})}
      >
        {table}
      </div>
    </figure>
  );
}

/** A compact data table (the numbers behind a chart). */
export function DataTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: { key: string; header: ReactNode; cells: ReactNode[] }[];
}) {
  return (
    <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {head.map((h, i) => (
            <th
              key={h}
              scope="col"
              className={cn(
                "bg-gray-50 px-3 py-2 text-xs font-semibold tracking-wide whitespace-nowrap text-gray-700 uppercase",
                i > 0 && "text-right",
              )}
            >
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100">
        {rows.map((r) => (
          <tr key={r.key}>
            <th scope="row" className="px-3 py-1.5 font-medium whitespace-nowrap text-gray-900">
              {r.header}
            </th>
            {r.cells.map((c, i) => (
              <td key={i} className="px-3 py-1.5 text-right text-gray-900 tabular-nums">
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const OUTCOMES = [
  { key: "completed", label: "Completed", color: "#15803d" },
  { key: "failed", label: "Failed", color: "#b91c1c" },
  { key: "cancelled", label: "Cancelled", color: "#d97706" },
  { key: "expired", label: "Expired", color: "#6b7280" },
  { key: "open", label: "Open", color: "#3b82f6" },
] as const;

const DAY_LABEL = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const DAY_LONG = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

/** "2026-01-31" → "Jan 31"; "2026-01-31T14:00" → "14:00" (buckets are UTC). */
function bucketLabel(date: string, long = false): string {
  if (date.includes("T")) {
    const hour = date.slice(11, 16);
    return long ? `${DAY_LONG.format(new Date(`${date.slice(0, 10)}T00:00:00Z`))}, ${hour} UTC` : hour;
  }
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : long ? DAY_LONG.format(d) : DAY_LABEL.format(d);
}

export function OutcomeChart({ stats }: { stats: TVerificationStats }) {
  const rows = stats.days.map((d) => ({
    ...d,
    label: bucketLabel(d.date),
    open: Math.max(0, d.created - d.completed - d.failed - d.cancelled - d.expired),
  }));
  const hourly = stats.bucket === "hour";
  return (
    <ChartFigure
      title={hourly ? "Verifications per hour by outcome" : "Verifications per day by outcome"}
      summary={`Sessions created in each ${hourly ? "hour" : "day"} (UTC), by their status now.`}
      chart={
        <div className="h-64 w-full">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={rows}
              accessibilityLayer={false}
              margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
            >
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
              <XAxis
                dataKey="label"
                tick={{ fontSize: 12, fill: "#374151" }}
                interval="preserveStartEnd"
                minTickGap={16}
                tickLine={false}
              />
              <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#374151" }} tickLine={false} />
              <Tooltip cursor={{ fill: "#f3f4f6" }} />
              {OUTCOMES.map((o) => (
                <Bar
                  key={o.key}
                  dataKey={o.key}
                  name={o.label}
                  stackId="outcome"
                  fill={o.color}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      }
      legend={
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-800">
          {OUTCOMES.map((o) => (
            <li key={o.key} className="flex items-center gap-1.5">
              <span className="h-3 w-3 rounded-sm" style={{ backgroundColor: o.color }} />
              {o.label}
            </li>
          ))}
        </ul>
      }
      table={
        <DataTable
          caption={hourly ? "Verifications per hour by outcome" : "Verifications per day by outcome"}
          head={[hourly ? "Hour (UTC)" : "Day (UTC)", "Created", ...OUTCOMES.map((o) => o.label)]}
          rows={[
            ...rows.map((r) => ({
              key: r.date,
              header: bucketLabel(r.date, true),
              cells: [r.created, ...OUTCOMES.map((o) => r[o.key])],
            })),
            {
              key: "total",
              header: "Total",
              cells: [
                stats.totals.created,
                stats.totals.completed,
                stats.totals.failed,
                stats.totals.cancelled,
                stats.totals.expired,
                stats.totals.open,
              ],
            },
          ]}
        />
      }
    />
  );
}

const FUNNEL_STEPS = [
  { key: "created", label: "Created", hint: "Sessions started by your app" },
  { key: "started", label: "Started", hint: "The end-user began" },
  { key: "authenticated", label: "Authenticated", hint: "The provider confirmed the identity" },
  { key: "completed", label: "Completed", hint: "Verified, claims available" },
] as const;

/** The funnel as a table whose last column draws the bars (the table is the chart). */
export function Funnel({ funnel }: { funnel: TVerificationStats["funnel"] }) {
  const base = funnel.created;
  return (
    <figure className="min-w-0 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
      <figcaption className="mb-3">
        <h2 className="text-lg font-semibold text-gray-900">Funnel</h2>
        <p className="text-sm text-gray-700">
          How far the sessions of the period got: created → started → authenticated → completed.
        </p>
      </figcaption>
      <table className="w-full table-fixed text-left text-sm" data-testid="funnel">
        <caption className="sr-only">
          Funnel: sessions reaching each step, and their share of those created
        </caption>
        <thead>
          <tr className="text-xs font-semibold tracking-wide text-gray-700 uppercase">
            <th scope="col" className="w-[34%] py-1.5 pr-2 sm:w-48">
              Step
            </th>
            <th scope="col" className="w-[24%] py-1.5 pr-2 text-right sm:w-24">
              Sessions
            </th>
            <th scope="col" className="w-[20%] py-1.5 pr-2 text-right sm:w-20">
              Share
            </th>
            <th scope="col" className="py-1.5">
              <span className="sr-only">Bar</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {FUNNEL_STEPS.map((step) => {
            const value = funnel[step.key];
            const share = base ? (value / base) * 100 : 0;
            return (
              <tr key={step.key}>
                <th scope="row" className="py-2 pr-2 align-top font-medium">
                  <div>{step.label}</div>
                  <div className="hidden text-xs font-normal text-gray-600 sm:block">{step.hint}</div>
                </th>
                <td className="py-2 pr-2 text-right align-top tabular-nums">{value}</td>
                <td className="py-2 pr-2 text-right align-top tabular-nums">{percent(value, base)}</td>
                <td className="py-2 align-top">
                  <div aria-hidden="true" className="h-5 w-full rounded bg-gray-100">
                    <div className="h-5 rounded bg-blue-600" style={{ width: `${share}%` }} />
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </figure>
  );
}

/** Completion rate and median time to complete per provider: a table with inline bars. */
export function ProviderTable({
  providers,
  providerName,
}: {
  providers: TVerificationStats["providers"];
  providerName: (id: string) => string;
}) {
  return (
    <figure className="min-w-0 rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
      <figcaption className="mb-3">
        <h2 className="text-lg font-semibold text-gray-900">By provider</h2>
        <p className="text-sm text-gray-700">
          Completion rate and median time from creation to verification.
        </p>
      </figcaption>
      {providers.length === 0 ? (
        <p className="text-sm text-gray-700">No sessions in this period.</p>
      ) : (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="By provider: data">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Completion rate and median time to complete per provider</caption>
            <thead>
              <tr className="text-xs font-semibold tracking-wide text-gray-700 uppercase">
                <th scope="col" className="py-1.5 pr-3">
                  Provider
                </th>
                <th scope="col" className="py-1.5 pr-3">
                  Completion rate
                </th>
                <th scope="col" className="py-1.5 text-right">
                  Median time to complete
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {providers.map((p) => {
                const rate = Math.round(p.completionRate * 100);
                return (
                  <tr key={p.providerId}>
                    <th scope="row" className="py-2 pr-3 align-top font-medium">
                      {providerName(p.providerId)}
                    </th>
                    <td className="w-1/2 py-2 pr-3 align-top">
                      <div className="flex flex-wrap items-baseline gap-x-2">
                        <span className="font-semibold tabular-nums">{rate}%</span>
                        <span className="text-xs text-gray-600">
                          {p.completed} of {p.total} {p.total === 1 ? "session" : "sessions"}
                        </span>
                      </div>
                      <div aria-hidden="true" className="mt-1 h-2.5 min-w-20 rounded bg-gray-100">
                        <div className="h-2.5 rounded bg-green-700" style={{ width: `${rate}%` }} />
                      </div>
                    </td>
                    <td className="py-2 text-right align-top tabular-nums">
                      {formatSeconds(p.medianSecondsToComplete)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}
