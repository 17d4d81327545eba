import type { ReactNode } from "react";

export function EmptyState({
  title,
  children,
  action,
  icon,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-gray-300 bg-white px-6 py-10 text-center">
      {icon ? (
        <div className="text-gray-500" aria-hidden>
          {icon}
        </div>
      ) : null}
      <h2 className="text-base font-semibold text-gray-900">{title}</h2>
      {children ? <div className="max-w-md text-sm text-gray-600">{children}</div> : null}
      {action}
    </div>
  );
}
