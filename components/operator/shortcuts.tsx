/** The keyboard shortcuts of a page, shown where the work happens. */
export function ShortcutHints({ items }: { items: { keys: string[]; label: string }[] }) {
  return (
    <div className="rounded-md border border-gray-200 bg-white px-3 py-2 text-sm text-gray-800">
      <h2 className="sr-only">Keyboard shortcuts</h2>
      <ul className="flex flex-wrap gap-x-4 gap-y-1" aria-label="Keyboard shortcuts">
        {items.map((item) => (
          <li key={item.label} className="flex items-center gap-1">
            {item.keys.map((k) => (
              <kbd
                key={k}
                className="rounded border border-gray-400 bg-gray-50 px-1.5 font-mono text-xs font-semibold text-gray-900"
              >
                {k}
              </kbd>
            ))}
            <span>{item.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
