import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/api-stub.ts';
import { usePlatform } from '../../lib/auth.tsx';
import { renderApp } from '../../test/render.tsx';
import { ChainValue } from './chain-value.tsx';

const HASH = `0x${'ab'.repeat(32)}`;
const LOWER = '0x52908400098527886e0f7030069857d2e4169ee7';
const EIP55 = '0x52908400098527886E0F7030069857D2E4169EE7';
const user = {
  _id: 'u1',
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: null,
  isAdmin: false,
  role: null,
  fourEyes: false,
  isBlocked: false,
  depositAddress: EIP55,
  withdrawalWallet: null,
  invitationCode: null,
  twoFactorEnabled: false,
  locale: 'en',
  withdrawalLock: { status: 'off', endsAt: null, required: false },
  withdrawalsFrozen: false,
  cycleReminders: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** Says when the session read has brought the platform settings (explorer or not). */
function Read() {
  return usePlatform() ? <p>settings read</p> : null;
}

function show(explorerUrl?: string) {
  localStorage.setItem('token', 'tok');
  stubApi(({ path }) =>
    path === '/user/me'
      ? { user, platform: { timeZone: 'UTC', demoDeposits: false, ...(explorerUrl ? { explorerUrl } : {}) } }
      : undefined,
  );
  renderApp(
    <>
      <ChainValue kind="tx" value={HASH} />
      <ChainValue kind="address" value={LOWER} />
      <Read />
    </>,
  );
}

describe('ChainValue', () => {
  it('cuts a hash to 20 characters with the whole one for screen readers, copies it and links both to the explorer', async () => {
    const u = userEvent.setup();
    show('https://amoy.polygonscan.com');
    expect(screen.getByText(`${HASH.slice(0, 20)}...`).getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByText(HASH).className).toContain('sr-only');
    // Addresses in their EIP-55 capitals, whole.
    expect(screen.getByText(EIP55).getAttribute('title')).toBe(EIP55);
    const tx = await screen.findByRole('link', { name: 'View transaction on the explorer' });
    expect(tx.getAttribute('href')).toBe(`https://amoy.polygonscan.com/tx/${HASH}`);
    expect(tx.getAttribute('target')).toBe('_blank');
    expect(tx.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'View address on the explorer' }).getAttribute('href')).toBe(
      `https://amoy.polygonscan.com/address/${EIP55}`,
    );

    await u.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(await navigator.clipboard.readText()).toBe(EIP55);
    expect(await screen.findByText('Copied')).toBeTruthy();
    screen.getByRole('button', { name: 'Copy transaction hash' }).focus();
    await u.keyboard('{Enter}');
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(HASH));
  });

  it('no explorer configured: no link, the copy button stays', async () => {
    show();
    await screen.findByText('settings read');
    expect(screen.getAllByRole('button', { name: /^Copy / })).toHaveLength(2);
    expect(screen.queryAllByRole('link')).toEqual([]);
  });
});
