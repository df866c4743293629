import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Solvency } from '@harvest/shared/schemas/solvency';
import { SolvencyPanel } from './solvency-panel.tsx';

afterEach(() => vi.unstubAllGlobals());

function show(s: Solvency) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(JSON.stringify(s), { status: 200, headers: { 'content-type': 'application/json' } }),
    ),
  );
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SolvencyPanel />
    </QueryClientProvider>,
  );
}

describe('SolvencyPanel', () => {
  it('shows coverage, liabilities, assets and the reading time; green at or above 100 %', async () => {
    show({
      liabilities: 1000,
      assets: { depositAddresses: 900, payoutAddress: 200 },
      coverage: 1.1,
      asOf: '2026-11-23T10:00:00.000Z',
    });
    const coverage = await screen.findByTestId('solvency-coverage');
    expect(coverage.textContent).toBe('110.0 % covered');
    expect(coverage.dataset.covered).toBe('yes');
    expect(coverage.className).toMatch(/emerald/);
    expect(screen.getByText('1,000.00 USDC')).toBeTruthy();
    expect(screen.getByText(/On-chain balances read/)).toBeTruthy();
  });

  it('is red below 100 %', async () => {
    show({
      liabilities: 1000,
      assets: { depositAddresses: 500, payoutAddress: 100 },
      coverage: 0.6,
      asOf: '2026-11-23T10:00:00.000Z',
    });
    const coverage = await screen.findByTestId('solvency-coverage');
    expect(coverage.textContent).toBe('60.0 % covered');
    expect(coverage.dataset.covered).toBe('no');
    expect(coverage.className).toMatch(/rose/);
    expect(screen.getByText(/On-chain balances read Nov 23, 2026/)).toBeTruthy();
  });

  it('before the chain was ever read: no alarm, it says the coverage is not known', async () => {
    show({ liabilities: 1000, assets: { depositAddresses: 0, payoutAddress: 0 }, coverage: 0, asOf: null });
    const coverage = await screen.findByTestId('solvency-coverage');
    expect(coverage.textContent).toBe('Coverage not known yet');
    expect(coverage.className).not.toMatch(/rose|red/);
    expect(screen.getByText('On-chain balances not read yet')).toBeTruthy();
  });
});
