import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render.tsx';
import { AccountSummaryCards } from './account-summary-cards.tsx';

const summary = {
  balance: 1_234_567.891299,
  totalInvestment: 2_000_000.00005,
  referralRewards: 0,
  withdrawalWallet: null,
  totalEarnings: 12.345678,
  availableToWithdraw: 0,
  pendingApproval: 0,
  successfullyWithdrawn: 0,
};

describe('the dashboard cards', () => {
  it('show the balance and total investment with 4 decimals, cut not rounded, the exact figure in the title', () => {
    renderApp(<AccountSummaryCards summary={summary} />);
    expect(screen.getByText('1,234,567.8912 USDC').title).toBe('1,234,567.891299\u00a0USDC');
    // Rounding would show 2,000,000.0001: money that is not there.
    expect(screen.getByText('2,000,000.0000 USDC').title).toBe('2,000,000.00005\u00a0USDC');
    // The other cards are exact, as everywhere else.
    expect(screen.getByText('12.345678 USDC').title).toBe('');
  });
});
