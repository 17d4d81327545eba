/**
 * The DNS records to create, exactly as the API lists them, each with copy buttons, and the
 * result of the latest check beside it (found / missing / wrong value, with what DNS holds).
 * Wide screens get a table; below the md breakpoint (a phone) each record is a card whose names
 * and values run the full width, so a host name is not broken letter by letter in a thin column.
 * Both are rendered and CSS shows one: the hidden one is out of the accessibility tree.
 */
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { Table, TBody, Td, Th } from "@/components/ui/table";
import { CHECK_RESULT_LABEL, CHECK_RESULT_TONE } from "./describe";
import type { TDomainCheck, TDomainRecord } from "./queries";

function Result({ check }: { check: TDomainCheck | undefined }) {
  if (!check) return <span className="text-gray-600">Not checked yet</span>;
  return (
    <div className="space-y-1">
      <Badge tone={CHECK_RESULT_TONE[check.result]}>{CHECK_RESULT_LABEL[check.result]}</Badge>
      {check.result === "found" ? null : check.result === "lookup_failed" ? (
        <p className="text-xs text-gray-700">{check.message}</p>
      ) : check.found.length > 0 ? (
        <p className="text-xs text-gray-700">
          Found:{" "}
          {check.found.map((value, i) => (
            <span key={i}>
              {i > 0 ? ", " : null}
              <code className="font-mono break-all">{value}</code>
            </span>
          ))}
        </p>
      ) : (
        <p className="text-xs text-gray-700">Nothing at this name yet.</p>
      )}
    </div>
  );
}

export function DnsRecordsTable({
  records,
  checks,
}: {
  records: TDomainRecord[];
  checks: TDomainCheck[] | undefined;
}) {
  const byId = new Map((checks ?? []).map((c) => [c.id, c]));
  return (
    <>
      <RecordCards records={records} byId={byId} />
      <RecordTable records={records} byId={byId} />
    </>
  );
}

function CopyLine({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div className="space-y-1">
      <dt className="text-xs font-semibold text-gray-700 uppercase">{label}</dt>
      <dd className="flex items-start gap-2">
        <code className="min-w-0 flex-1 font-mono text-sm break-all text-gray-900">{value}</code>
        <CopyButton value={value} label={copyLabel} />
      </dd>
    </div>
  );
}

function RecordCards({ records, byId }: { records: TDomainRecord[]; byId: Map<string, TDomainCheck> }) {
  return (
    <ul aria-label="DNS records to create" className="space-y-3 md:hidden">
      {records.map((record) => (
        <li
          key={record.id}
          aria-labelledby={`dns-card-${record.id}`}
          className="space-y-3 rounded-lg border border-gray-200 bg-white p-4"
        >
          <h3 id={`dns-card-${record.id}`} className="font-mono text-sm font-semibold">
            {record.type} <span className="sr-only">record on {record.host}</span>
          </h3>
          <dl className="space-y-3">
            <CopyLine label="Name" value={record.name} copyLabel="Copy name" />
            <CopyLine label="Full name" value={record.host} copyLabel="Copy full name" />
            <CopyLine label="Value" value={record.value} copyLabel="Copy value" />
            <div className="space-y-1">
              <dt className="text-xs font-semibold text-gray-700 uppercase">Last check</dt>
              <dd className="text-sm">
                <Result check={byId.get(record.id)} />
              </dd>
            </div>
          </dl>
          <p className="text-xs text-gray-600">{record.description}</p>
        </li>
      ))}
    </ul>
  );
}

function RecordTable({ records, byId }: { records: TDomainRecord[]; byId: Map<string, TDomainCheck> }) {
  return (
    <Table caption="DNS records to create" className="hidden md:block">
      <thead>
        <tr>
          <Th>Type</Th>
          <Th>Name</Th>
          <Th>Value</Th>
          <Th>Last check</Th>
        </tr>
      </thead>
      <TBody>
        {records.map((record) => (
          <tr key={record.id}>
            <Td className="font-mono font-semibold">{record.type}</Td>
            <Td className="min-w-[12rem]">
              <div className="flex items-start gap-2">
                <code className="min-w-0 flex-1 font-mono text-sm break-all">{record.name}</code>
                <CopyButton value={record.name} label="Copy name" />
              </div>
              <div className="mt-1 flex items-start gap-2">
                <p className="min-w-0 flex-1 text-xs text-gray-600">
                  Full name: <span className="break-all">{record.host}</span>
                </p>
                <CopyButton value={record.host} label="Copy full name" />
              </div>
            </Td>
            <Td className="min-w-[14rem]">
              <div className="flex items-start gap-2">
                <code className="min-w-0 flex-1 font-mono text-sm break-all">{record.value}</code>
                <CopyButton value={record.value} label="Copy value" />
              </div>
              <p className="mt-1 text-xs text-gray-600">{record.description}</p>
            </Td>
            <Td className="min-w-[10rem]">
              <Result check={byId.get(record.id)} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
