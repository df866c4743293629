import * as RadixTabs from '@radix-ui/react-tabs';
import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * Tabs on Radix Tabs (WAI-ARIA tabs pattern: one tab in the Tab order, Left/Right wrap, Home/End, the
 * panel labelled by its tab, selection follows focus). Only the selected panel is rendered: `children`
 * is its content. The dashboard route that uses it is a lazy chunk, so /login never loads this code
 * (docs/decisions/0081).
 *
 * The panel is our own element, with Radix's roles and links (each tab names its panel, the panel is
 * labelled by its tab). Radix's Content wraps it in Presence, which reads the panel's computed animation
 * while React commits: the browser then computes the styles of the whole new page inside that task, the
 * longest of the dashboard's first load (docs/decisions/0065).
 */
export function Tabs<T extends string>({
  label,
  tabs,
  value,
  onChange,
  children,
  listClassName,
  tabClassName,
  listWrapperClassName,
}: {
  label: string;
  tabs: readonly { id: T; label: ReactNode }[];
  value: T;
  onChange: (id: T) => void;
  children: ReactNode;
  listClassName: string;
  /** Styles a tab; `data-[state=active]:` selects the chosen one. */
  tabClassName: string;
  /** The list sits in a div with this class. */
  listWrapperClassName?: string;
}) {
  const base = useId();
  // Radix reports a pressed tab twice (on pointer down, then on the focus it gives it) before the new value is
  // rendered: a change is reported once, so a tab in the URL is one history entry.
  const reported = useRef(value);
  useEffect(() => {
    reported.current = value;
  }, [value]);
  const tabId = (id: T) => `${base}-tab-${id}`;
  const panelId = (id: T) => `${base}-panel-${id}`;
  return (
    <RadixTabs.Root
      value={value}
      onValueChange={(v) => {
        const tab = tabs.find((t) => t.id === v);
        if (!tab || tab.id === reported.current) return;
        reported.current = tab.id;
        onChange(tab.id);
      }}
    >
      <div className={listWrapperClassName}>
        <RadixTabs.List aria-label={label} className={listClassName}>
          {tabs.map((t) => (
            <RadixTabs.Trigger
              key={t.id}
              value={t.id}
              id={tabId(t.id)}
              aria-controls={panelId(t.id)}
              className={tabClassName}
            >
              {t.label}
            </RadixTabs.Trigger>
          ))}
        </RadixTabs.List>
      </div>
      <div
        role="tabpanel"
        id={panelId(value)}
        aria-labelledby={tabId(value)}
        tabIndex={0}
        className="outline-none focus-visible:ring-2 focus-visible:ring-purple-300"
      >
        {children}
      </div>
    </RadixTabs.Root>
  );
}
