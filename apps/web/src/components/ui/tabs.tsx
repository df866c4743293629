import * as RadixTabs from '@radix-ui/react-tabs';
import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * Tabs on Radix Tabs (WAI-ARIA tabs pattern: one tab in the Tab order, Left/Right wrap, Home/End, the
 * panel labelled by its tab, selection follows focus). Only the selected panel is rendered: `children`
 * is its content. The dashboard route that uses it is a lazy chunk, so /login never loads this code
 * (docs/decisions/0023).
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
  listDecoration,
}: {
  label: string;
  tabs: readonly { id: T; label: ReactNode }[];
  value: T;
  onChange: (id: T) => void;
  children: ReactNode;
  listClassName: string;
  /** Styles a tab; `data-[state=active]:` selects the chosen one. */
  tabClassName: string;
  /** The list sits in a div with this class, beside `listDecoration` (e.g. a fade that says it scrolls). */
  listWrapperClassName?: string;
  listDecoration?: ReactNode;
}) {
  const list = useRef<HTMLDivElement>(null);
  const base = useId();
  const tabId = (id: T) => `${base}-tab-${id}`;
  const panelId = (id: T) => `${base}-panel-${id}`;
  // On a phone the bar scrolls sideways: keep the selected tab in view (after a reload on the last tab, or
  // when the window narrows). Read in the next frame, after the first paint has laid the page out: reading
  // layout during the commit forced a synchronous layout inside the dashboard's longest task.
  useEffect(() => {
    const reveal = () => {
      const bar = list.current;
      const active = bar?.querySelector<HTMLElement>('[data-state="active"]');
      if (!bar || !active) return;
      const left = active.offsetLeft - bar.offsetLeft;
      if (left < bar.scrollLeft || left + active.offsetWidth > bar.scrollLeft + bar.clientWidth)
        bar.scrollLeft = left - (bar.clientWidth - active.offsetWidth) / 2;
    };
    const frame = requestAnimationFrame(reveal);
    window.addEventListener('resize', reveal);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', reveal);
    };
  }, [value]);
  return (
    <RadixTabs.Root
      value={value}
      onValueChange={(v) => {
        const tab = tabs.find((t) => t.id === v);
        if (tab) onChange(tab.id);
      }}
    >
      <div className={listWrapperClassName}>
        <RadixTabs.List ref={list} aria-label={label} className={listClassName}>
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
        {listDecoration}
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
