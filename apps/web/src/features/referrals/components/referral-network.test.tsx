import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ReferralNetwork } from './referral-network.tsx';

const entry = (id: string, first: string) => ({
  _id: id,
  firstName: first,
  lastName: 'Doe',
  email: `${first.toLowerCase()}@example.com`,
  createdAt: '2026-01-14T08:00:00.000Z',
});

describe('ReferralNetwork', () => {
  it('lists the three levels with names, e-mails and join dates, and refreshes', async () => {
    const onRefresh = vi.fn();
    render(
      <ReferralNetwork
        tree={{
          totalReferrals: 3,
          level1: [entry('a', 'Ann')],
          level2: [entry('b', 'Ben')],
          level3: [entry('c', 'Cid')],
        }}
        onRefresh={onRefresh}
      />,
    );
    expect(screen.getByText('Total referrals:').textContent).toContain('3');
    const l1 = screen.getByRole('region', { name: 'Level 1 (10%)' });
    expect(within(l1).getByText('Ann Doe')).toBeTruthy();
    expect(within(l1).getByText('ann@example.com')).toBeTruthy();
    expect(within(l1).getByText('Joined Jan 14, 2026')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Level 2 (3%)' })).getByText('Ben Doe')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Level 3 (1%)' })).getByText('Cid Doe')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('invites the user to share the invitation code when empty', () => {
    render(
      <ReferralNetwork
        tree={{ totalReferrals: 0, level1: [], level2: [], level3: [] }}
        emptyAction={<button type="button">Share your invitation code</button>}
      />,
    );
    expect(screen.getByText('No referrals yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Share your invitation code' })).toBeTruthy();
  });
});
