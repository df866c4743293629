import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { AuditLog } from './audit-log.tsx';

const admin = { _id: 'a1', firstName: 'Platform', lastName: 'Admin', email: 'root@example.com' };
const grace = { _id: 'u1', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' };
const entry = (e: Record<string, unknown>) => ({
  before: null,
  after: null,
  note: null,
  ip: '10.0.0.1',
  createdAt: '2026-11-16T09:00:00.000Z',
  admin,
  subject: null,
  tierName: null,
  batch: null,
  ...e,
});

describe('AuditLog', () => {
  it('reads in words and names, not machine names and ids', async () => {
    stubApi(() => ({
      page: 1,
      pageSize: 25,
      total: 3,
      actions: ['tier_update', 'user_block'],
      entries: [
        entry({
          _id: '3',
          action: 'user_block',
          targetType: 'user',
          targetId: 'u1',
          subject: grace,
          before: { isBlocked: false },
          after: { isBlocked: true },
        }),
        entry({ _id: '2', action: 'deposit_approve', targetType: 'deposit', targetId: 'd1', subject: grace }),
        entry({
          _id: '1',
          action: 'tier_update',
          targetType: 'tier',
          targetId: 't1',
          tierName: 'Gold',
          before: { dailyRate: 2, active: true },
          after: { dailyRate: 2.5, active: true },
        }),
      ],
    }));
    renderApp(<AuditLog />, { auth: false });
    expect(await screen.findByRole('heading', { name: 'User blocked' })).toBeTruthy();
    expect(screen.getByText(/^User Grace Hopper/).textContent).toBe('User Grace Hopper (grace@example.com)');
    expect(screen.getByText(/^Deposit of Grace Hopper/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Tier updated' })).toBeTruthy();
    expect(screen.getByText('Tier: Gold')).toBeTruthy();
    expect(screen.getAllByText('Daily rate (%)')).toHaveLength(2);
    expect(screen.getAllByText('Blocked')).toHaveLength(2);
    expect(screen.getAllByText('Yes')).toHaveLength(3);
    expect(screen.getAllByText('No')).toHaveLength(1);
    expect(screen.queryByText('tier_update')).toBeNull();
    // The action filter offers the words too.
    expect(screen.getByRole('option', { name: 'Tier updated' })).toBeTruthy();
  });

  it('names a payout batch and what it holds, and the platform when the watcher completed a withdrawal', async () => {
    const batch = { _id: 'b1', createdAt: '2026-11-16T08:00:00.000Z', withdrawals: 2, total: 1_250_340.5 };
    stubApi(() => ({
      page: 1,
      pageSize: 25,
      total: 2,
      actions: ['payout_batch_create', 'withdrawal_paid_on_chain'],
      entries: [
        entry({
          _id: '2',
          action: 'withdrawal_paid_on_chain',
          targetType: 'withdrawal',
          targetId: 'w1',
          admin: null,
          ip: null,
          subject: grace,
          batch,
          after: { status: 'approved', txHash: '0xabc', batchId: 'b1' },
        }),
        entry({ _id: '1', action: 'payout_batch_create', targetType: 'payout_batch', targetId: 'b1', batch }),
      ],
    }));
    renderApp(<AuditLog />, { auth: false });
    expect(await screen.findByRole('heading', { name: 'Withdrawal paid on chain' })).toBeTruthy();
    expect(screen.getByText('By the platform: the chain watcher found the payout')).toBeTruthy();
    expect(screen.getByText(/^Withdrawal of Grace Hopper/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Payout batch created' })).toBeTruthy();
    const named = screen.getAllByText(/^Payout batch of .*: 2 withdrawals, .*1,250,340\.50 USDC/);
    expect(named).toHaveLength(2);
    expect(screen.queryByText(/no longer on record/)).toBeNull();
  });
});
