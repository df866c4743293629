import { useRef, type KeyboardEvent, type ReactNode } from 'react';

/**
 * The WAI-ARIA tabs pattern for the dashboard's tab bar: one tab in the Tab order (the selected one),
 * Left/Right (wrapping), Home and End move between tabs and select them, the panel is labelled by its
 * tab. Written here rather than taken from Radix Tabs, which alone would put the dashboard's first load
 * over its 120 KB budget (docs/decisions/0023); menus and dialogs are Radix.
 */
export function TabBar<T extends string>({
  label,
  tabs,
  value,
  onChange,
  idPrefix,
  className = '',
  tabClassName,
}: {
  label: string;
  tabs: { id: T; label: ReactNode }[];
  value: T;
  onChange: (id: T) => void;
  idPrefix: string;
  className?: string;
  tabClassName: (selected: boolean) => string;
}) {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.id);
    refs.current.get(tab.id)?.focus();
  }
  return (
    <div role="tablist" aria-label={label} className={className}>
      {tabs.map((t, i) => {
        const selected = t.id === value;
        return (
          <button
            key={t.id}
            ref={(el) => {
              if (el) refs.current.set(t.id, el);
              else refs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${t.id}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(t.id)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={tabClassName(selected)}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
}

/** The panel of the selected tab. */
export function TabPanel({ idPrefix, value, children }: { idPrefix: string; value: string; children: ReactNode }) {
  return (
    <div
      role="tabpanel"
      id={`${idPrefix}-panel`}
      aria-labelledby={`${idPrefix}-tab-${value}`}
      tabIndex={0}
      className="outline-none"
    >
      {children}
    </div>
  );
}
