import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, stubApi } from '../../test/api-stub.ts';
import { renderApp } from '../../test/render.tsx';
import { Component as AccountLink } from './account-link.tsx';

const SENT = '2026-11-16T09:00:00.000Z';
const ADDRESS = { label: 'Cold storage', address: '0x52908400098527886E0F7030069857D2E4169EE7', usableAt: SENT };

/** The pages the security e-mails link to; nothing happens before the button is pressed. */
describe('the e-mailed links', () => {
  it('"this wasn\'t me" needs no session: it posts the fragment\'s token after the press and says what happened', async () => {
    const u = userEvent.setup();
    const api = stubApi(({ path }) => {
      if (path === '/security/link-preview')
        return { sentAt: SENT, session: { device: 'Firefox 133 on Windows 10', ip: '203.0.113.9', signedInAt: SENT } };
      if (path === '/security/not-me') return { message: 'Your account is secured.' };
    });
    renderApp(<AccountLink />, { path: '/not-me#token=abcDEF_123-xyz' });
    const press = await screen.findByRole('button', { name: 'Secure my account' });
    // The sign-in it ends is named before the button.
    expect(screen.getByText('This sign-in is signed out:')).toBeTruthy();
    expect(screen.getByText('Firefox 133 on Windows 10')).toBeTruthy();
    expect(screen.getByText('203.0.113.9')).toBeTruthy();
    expect(api.to('POST /security/link-preview')[0]?.body).toEqual({ page: 'not-me', token: 'abcDEF_123-xyz' });
    expect(api.to('POST /security/not-me')).toHaveLength(0);
    await u.click(press);
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Your account is secured.');
    expect(api.to('POST /security/not-me')[0]?.body).toEqual({ token: 'abcDEF_123-xyz' });
  });

  it('a link used meanwhile says so when pressed', async () => {
    const u = userEvent.setup();
    stubApi(({ path }) => {
      if (path === '/security/link-preview') return { sentAt: SENT, address: ADDRESS };
      if (path === '/security/not-me')
        return fail(400, 'This link is invalid, already used or expired.', 'invalid_link');
    });
    renderApp(<AccountLink />, { path: '/not-me#token=abc' });
    await u.click(await screen.findByRole('button', { name: 'Secure my account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link is invalid, already used or expired.');
  });

  it('a used or expired link says so when it opens, with no button', async () => {
    stubApi(({ path }) => {
      if (path === '/security/link-preview')
        return fail(400, 'This link is invalid, already used or expired.', 'invalid_link');
    });
    renderApp(<AccountLink />, { path: '/not-me#token=abc' });
    expect((await screen.findByRole('alert')).textContent).toBe('This link is invalid, already used or expired.');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('confirming an address asks to sign in first; nothing is sent without a session', async () => {
    const api = stubApi(({ path }) => {
      if (path === '/security/link-preview') return { sentAt: SENT, address: ADDRESS };
    });
    renderApp(<AccountLink />, { path: '/confirm-address#token=abc' });
    expect(await screen.findByRole('button', { name: 'Sign in to confirm' })).toBeTruthy();
    // The address and its label, before anything is confirmed.
    expect(screen.getByText('Cold storage')).toBeTruthy();
    expect(screen.getByText(ADDRESS.address)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm this address' })).toBeNull();
    await waitFor(() => expect(api.to('POST /user/withdrawal-addresses/confirm')).toHaveLength(0));
  });

  it('a link without its token says it is incomplete', async () => {
    stubApi(() => undefined);
    renderApp(<AccountLink />, { path: '/confirm-lock-off' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This link is incomplete. Open it again from the e-mail.',
    );
  });
});
