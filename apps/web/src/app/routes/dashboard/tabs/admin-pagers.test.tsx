import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../features/admin-audit/components/audit-log.tsx';
import { AdminDepositsPanel } from '../../../../features/admin-deposits/components/admin-deposits-panel.tsx';
import { UsersPanel } from '../../../../features/admin-users/components/users-panel.tsx';
import { AdminWithdrawals } from '../../../../features/admin-withdrawals/components/admin-withdrawals.tsx';
import { stubApi, type ApiCall } from '../../../../test/api-stub.ts';
import { renderApp } from '../../../../test/render.tsx';

/**
 * The back-office pagers ask by cursor (decision 0036): Next sends `after` the shown page's nextCursor,
 * Previous `before` its prevCursor, First and Last only a page number. Every list answers 5 pages here,
 * with cursors that name the page they came from.
 */
const PAGES = 5;
const params = (c: ApiCall) => Object.fromEntries(new URL(c.path, 'http://x').searchParams);
const page = (c: ApiCall) => Number(params(c).page ?? 1);
const cursors = (c: ApiCall) => ({
  nextCursor: page(c) < PAGES ? `next-of-${page(c)}` : null,
  prevCursor: page(c) > 1 ? `prev-of-${page(c)}` : null,
});
const info = (c: ApiCall) => ({
  page: page(c),
  pageSize: Number(params(c).pageSize),
  total: PAGES * Number(params(c).pageSize),
});

interface Case {
  name: string;
  ui: ReactNode;
  /** The list's GET path prefix. */
  list: string;
  answer: (c: ApiCall) => unknown;
  /** Changes the filter or search (the pager must start again at page 1, without a cursor). */
  refilter: (user: ReturnType<typeof userEvent.setup>) => Promise<void>;
  /** The filter's parameter once changed. */
  filtered: Record<string, string>;
  pager: string;
}

const cases: Case[] = [
  {
    name: 'users',
    ui: <UsersPanel />,
    list: 'GET /admin/users?',
    answer: (c) => ({ ...info(c), ...cursors(c), users: [] }),
    refilter: async (user) => {
      await user.type(screen.getByRole('searchbox'), 'ada');
      await user.click(screen.getByRole('button', { name: 'Search' }));
    },
    filtered: { search: 'ada' },
    pager: 'Users pages',
  },
  {
    name: 'deposits',
    ui: <AdminDepositsPanel />,
    list: 'GET /admin/deposits?',
    answer: (c) => ({
      ...info(c),
      ...cursors(c),
      deposits: [],
      counts: { all: 250, pending: 250, confirmed: 0, failed: 0 },
    }),
    refilter: (user) => user.click(screen.getByRole('button', { name: /^Pending/ })),
    filtered: { status: 'pending' },
    pager: 'Deposit pages',
  },
  {
    name: 'withdrawals',
    ui: <AdminWithdrawals />,
    list: 'GET /withdrawal/admin/',
    answer: (c) => ({ withdrawals: [], pagination: info(c), counts: { pending: 125, total: 250 }, ...cursors(c) }),
    refilter: (user) => user.click(screen.getByRole('tab', { name: /^History/ })),
    filtered: {},
    pager: 'Pages',
  },
  {
    name: 'audit log',
    ui: <AuditLog />,
    list: 'GET /admin/audit?',
    answer: (c) => ({ ...info(c), ...cursors(c), entries: [], actions: ['user.block'] }),
    refilter: (user) => user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'user.block'),
    filtered: { action: 'user.block' },
    pager: 'Audit log pages',
  },
];

describe('back-office pagers', () => {
  it.each(cases)('$name: Next and Previous send the cursors, First and Last the page number', async (c) => {
    const user = userEvent.setup();
    const api = stubApi((call) => (`${call.method} ${call.path}`.startsWith(c.list) ? c.answer(call) : undefined));
    renderApp(c.ui, { auth: false });
    const nav = await screen.findByRole('navigation', { name: c.pager });
    const last = () => {
      const calls = api.to(c.list);
      const p = params(calls[calls.length - 1] as ApiCall);
      delete p.t; // the withdrawals' cache-busting time
      return p;
    };
    const go = async (button: string, page: number) => {
      await user.click(within(nav).getByRole('button', { name: button }));
      expect(await within(nav).findByText(`Page ${page} of ${PAGES}`)).toBeTruthy();
      // The page's answer has arrived (its cursors are the ones the next click sends).
      await waitFor(() => expect(nav.getAttribute('aria-busy')).toBe('false'));
      expect(Number(last().page)).toBe(page);
    };

    expect(within(nav).getByText(`Page 1 of ${PAGES}`)).toBeTruthy();
    expect(last()).toMatchObject({ page: '1' });
    expect(last()).not.toHaveProperty('after');
    expect((within(nav).getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(nav).getByRole('button', { name: 'First' }) as HTMLButtonElement).disabled).toBe(true);

    await go('Next', 2);
    expect(last()).toMatchObject({ page: '2', after: 'next-of-1' });
    await go('Next', 3);
    expect(last()).toMatchObject({ page: '3', after: 'next-of-2' });
    await go('Previous', 2);
    expect(last()).toMatchObject({ page: '2', before: 'prev-of-3' });
    expect(last()).not.toHaveProperty('after');

    await go('Last', PAGES);
    expect(last()).toEqual(expect.objectContaining({ page: String(PAGES) }));
    expect(last()).not.toHaveProperty('after');
    expect(last()).not.toHaveProperty('before');
    expect((within(nav).getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(nav).getByRole('button', { name: 'Last' }) as HTMLButtonElement).disabled).toBe(true);
    await go('Previous', PAGES - 1);
    expect(last()).toMatchObject({ page: String(PAGES - 1), before: `prev-of-${PAGES}` });

    await go('First', 1);
    expect(last()).toMatchObject({ page: '1' });
    expect(last()).not.toHaveProperty('before');

    // Back to page 3, then a new filter: page 1 of the new list, no cursor of the old one.
    await go('Next', 2);
    await go('Next', 3);
    await c.refilter(user);
    await waitFor(() => expect(last()).toMatchObject({ page: '1', ...c.filtered }));
    expect(last()).not.toHaveProperty('after');
    expect(await within(nav).findByText(`Page 1 of ${PAGES}`)).toBeTruthy();
    await go('Next', 2);
    expect(last()).toMatchObject({ page: '2', after: 'next-of-1', ...c.filtered });
  });

  it.each(cases)('$name: while the next page loads, Previous and Next wait (no middle page by number)', async (c) => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const api = stubApi(async (call) => {
      if (!`${call.method} ${call.path}`.startsWith(c.list)) return undefined;
      if (page(call) === 2) await new Promise<void>((r) => (release = r));
      return c.answer(call);
    });
    renderApp(c.ui, { auth: false });
    const nav = await screen.findByRole('navigation', { name: c.pager });
    await user.click(within(nav).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(nav.getAttribute('aria-busy')).toBe('true'));
    const button = (name: string) => within(nav).getByRole('button', { name }) as HTMLButtonElement;
    expect(button('Next').disabled).toBe(true);
    expect(button('Previous').disabled).toBe(true);
    const asked = api.to(c.list).length;
    await user.click(button('Next'));
    expect(api.to(c.list)).toHaveLength(asked);
    release();
    await waitFor(() => expect(nav.getAttribute('aria-busy')).toBe('false'));
    expect(button('Next').disabled).toBe(false);
  });
});
