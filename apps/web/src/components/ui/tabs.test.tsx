import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs.tsx';

const TABS = [
  { id: 'alpha', label: 'Alpha' },
  { id: 'beta', label: 'Beta' },
  { id: 'gamma', label: 'Gamma' },
] as const;
type Id = (typeof TABS)[number]['id'];

function Harness({ start, onChange }: { start: Id; onChange?: (id: Id) => void }) {
  const [value, setValue] = useState<Id>(start);
  return (
    <Tabs
      label="Sections"
      tabs={TABS}
      value={value}
      onChange={(id) => {
        onChange?.(id);
        setValue(id);
      }}
      listClassName=""
      tabClassName=""
    >
      <p>Content of {value}</p>
    </Tabs>
  );
}

/** The one panel on screen, as assistive technology finds it: named by its tab, which points back at it. */
function expectPanelOf(label: string, text: string) {
  const tab = screen.getByRole('tab', { name: label });
  const panel = screen.getByRole('tabpanel', { name: label });
  expect(tab.getAttribute('aria-selected')).toBe('true');
  expect(tab.getAttribute('aria-controls')).toBe(panel.id);
  expect(panel.getAttribute('aria-labelledby')).toBe(tab.id);
  expect(panel.textContent).toBe(text);
  expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
}

describe('Tabs', () => {
  it('shows the selected panel, labelled by its tab, and follows clicks and the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness start="beta" />);
    expect(screen.getByRole('tablist', { name: 'Sections' })).toBeTruthy();
    expectPanelOf('Beta', 'Content of beta');
    // Tab ids are unique per tab (no two tabs share an id or a panel id).
    const ids = screen.getAllByRole('tab').map((t) => [t.id, t.getAttribute('aria-controls')]);
    expect(new Set(ids.flat()).size).toBe(6);

    await user.click(screen.getByRole('tab', { name: 'Gamma' }));
    expectPanelOf('Gamma', 'Content of gamma');
    // Selection follows focus; Right wraps from the last tab to the first.
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Alpha' }));
    expectPanelOf('Alpha', 'Content of alpha');
    await user.keyboard('{End}');
    expectPanelOf('Gamma', 'Content of gamma');
    // The panel itself is the next stop of the Tab key.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel', { name: 'Gamma' }));
  });

  it('reports each change once (a tab kept in the URL is one history entry per press)', async () => {
    const user = userEvent.setup();
    const changes: string[] = [];
    render(<Harness start="alpha" onChange={(id) => changes.push(id)} />);
    await user.click(screen.getByRole('tab', { name: 'Beta' }));
    await user.click(screen.getByRole('tab', { name: 'Beta' }));
    await user.keyboard('{ArrowRight}');
    expect(changes).toEqual(['beta', 'gamma']);
  });
});
