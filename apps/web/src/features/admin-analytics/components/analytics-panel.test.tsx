import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import { AnalyticsPanel } from './analytics-panel.tsx';

class RO {
  observe() {}
  unobserve() {}
  disconnect() {}
}
beforeEach(() => vi.stubGlobal('ResizeObserver', RO));
afterEach(() => vi.unstubAllGlobals());

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
function days(n: number) {
  return Array.from({ length: n }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
}
function analytics(period: number) {
  const ds = days(period > 28 ? 28 : period);
  return {
    period,
    timeZone: 'UTC',
    summary: { totalUsers: period * 10, totalInvestments: 1000, totalDeposits: 2500.5, totalAdjustments: -12.5 },
    userGrowth: ds.map((d, i) => ({ _id: d, count: i === ds.length - 1 ? period : 0 })),
    investmentTrends: ds.map((d) => ({ _id: d, totalAmount: 0, count: 0 })),
    depositTrends: ds.map((d) => ({ _id: d, totalAmount: 0, count: 0 })),
  };
}

function renderPanel() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AnalyticsPanel />
    </QueryClientProvider>,
  );
}

describe('AnalyticsPanel', () => {
  it('loads 30 days by default and redraws for another period', async () => {
    const user = userEvent.setup();
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        const period = Number(new URL(url, 'http://x').searchParams.get('period'));
        return json(analytics(period));
      }),
    );
    renderPanel();
    expect(await screen.findByText('300')).toBeTruthy();
    expect(urls[0]).toBe('/api/user/admin/analytics?period=30');
    expect(screen.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
    for (const title of ['New Registrations', 'Investment Amount', 'Deposits Received', 'Number of Investments'])
      expect(screen.getByText(title)).toBeTruthy();
    expect(screen.getAllByText('Last 7 entries')).toHaveLength(4);
    await user.click(screen.getByRole('button', { name: '7 days' }));
    expect(await screen.findByText('70')).toBeTruthy();
    expect(urls.at(-1)).toBe('/api/user/admin/analytics?period=7');
    expect(screen.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('lists the last seven days with activity as the last 7 entries, not calendar days of zeros', async () => {
    const ds = days(28);
    // Registrations on 9 days spread over the month; the other 19 days have none.
    const active = new Set([1, 4, 6, 9, 12, 15, 18, 21, 27]);
    const body = {
      ...analytics(30),
      userGrowth: ds.map((d, i) => ({ _id: d, count: active.has(i) ? 100 + i : 0 })),
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(body)),
    );
    renderPanel();
    const heading = (await screen.findByText('New Registrations')).closest('section, div[class*="rounded"]');
    expect(heading).toBeTruthy();
    const items = [...(heading?.querySelectorAll('li') ?? [])].map((li) => li.textContent);
    expect(items).toEqual(['Nov 28127', 'Nov 22121', 'Nov 19118', 'Nov 16115', 'Nov 13112', 'Nov 10109', 'Nov 7106']);
    expect(screen.getByText('-12.50 USDC')).toBeTruthy();
  });

  it("shows 'Failed to load analytics' when the server sends no text", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 500 })),
    );
    renderPanel();
    await waitFor(() => expect(screen.getByText(TEXT.analyticsFailed)).toBeTruthy());
  });
});
