import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import { fail, stubApi, type ApiRoutes } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { TierList } from './tier-list.tsx';

const TIERS = { tiers: [{ _id: 't1', name: 'Bronze', amount: 100, dailyRate: 1.5 }] };

function setup(invest: ApiRoutes, props: { weekday?: boolean } = {}) {
  const api = stubApi((call) => (call.path.startsWith('/user/investment-tiers') ? TIERS : invest(call)));
  renderApp(<TierList balance={250} {...props} />, { auth: false });
  return api;
}

const investment = {
  _id: 'i1',
  tier: 'Bronze',
  amount: 100,
  dailyRate: 1.5,
  totalEarned: 0,
  earningStarted: false,
  earningCompleted: false,
  cycleEndTime: null,
  withdrawalApprovedAt: null,
  nextCycleAvailableAt: null,
  lastCycleDay: null,
  createdAt: '2026-01-14T00:00:00.000Z',
  cycleEarnings: [],
};

describe('TierList', () => {
  it('shows each tier and asks for confirmation before money moves, with one Idempotency-Key', async () => {
    const api = setup(() => ({ message: 'Investment successful', investment }));
    expect(await screen.findByText('Bronze')).toBeTruthy();
    expect(screen.getByText('100.00 USDC')).toBeTruthy();
    expect(screen.getByText('1.5%')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Invest Now in Bronze' }));
    expect(api.to('POST /user/invest')).toHaveLength(0);
    expect(screen.getByText('1.50 USDC')).toBeTruthy(); // earning per cycle
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Investment' }));
    expect(await screen.findByText('Investment successful')).toBeTruthy();
    const sent = api.to('POST /user/invest');
    // The tier as the dialog showed it: its _id, amount and daily rate.
    expect(sent.map((c) => c.body)).toEqual([{ amount: 100, tierId: 't1', dailyRate: 1.5 }]);
    expect(sent[0]?.headers['idempotency-key']).toBeTruthy();
  });

  it('falls back to the spec text when the server sends none, inside the dialog', async () => {
    setup(() => new Response('', { status: 502 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Invest Now in Bronze' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Investment' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm investment' });
    expect(await within(dialog).findByText(TEXT.investFailed)).toBeTruthy();
  });

  it('a network error keeps the Idempotency-Key for the retry of the same investment', async () => {
    let n = 0;
    const api = setup(() => (n++ === 0 ? 'network' : { message: 'Investment successful', investment }));
    await userEvent.click(await screen.findByRole('button', { name: 'Invest Now in Bronze' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Investment' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm investment' });
    expect(await within(dialog).findByText(TEXT.investFailed)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm Investment' }));
    expect(await screen.findByText('Investment successful')).toBeTruthy();
    const keys = api.to('POST /user/invest').map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a tier changed since the list was read: the refusal shows in the dialog and the tiers are read again', async () => {
    const api = setup(() => fail(409, TEXT.tierChanged, 'tier_changed'));
    await userEvent.click(await screen.findByRole('button', { name: 'Invest Now in Bronze' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm Investment' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm investment' });
    expect(await within(dialog).findByText(TEXT.tierChanged)).toBeTruthy();
    await waitFor(() => expect(api.to('GET /user/investment-tiers')).toHaveLength(2));
  });

  it('on a weekend Invest Now is off and says why up front', async () => {
    setup(() => undefined, { weekday: false });
    const button = await screen.findByRole('button', { name: 'Invest Now in Bronze' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(TEXT.weekdayInvest)).toBeTruthy();
  });
});
