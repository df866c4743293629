import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, stubApi } from '../../test/api-stub.ts';
import { renderApp } from '../../test/render.tsx';
import { Component as AccountLink } from './account-link.tsx';

/** The pages the security e-mails link to; nothing happens before the button is pressed. */
describe('the e-mailed links', () => {
  it('"this wasn\'t me" needs no session: it posts the fragment\'s token after the press and says what happened', async () => {
    const u = userEvent.setup();
    const api = stubApi(({ path }) => {
      if (path === '/security/not-me') return { message: 'Your account is secured.' };
    });
    renderApp(<AccountLink />, { path: '/not-me#token=abcDEF_123-xyz' });
    const press = await screen.findByRole('button', { name: 'Secure my account' });
    expect(api.to('POST /security/not-me')).toHaveLength(0);
    await u.click(press);
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Your account is secured.');
    expect(api.to('POST /security/not-me')[0]?.body).toEqual({ token: 'abcDEF_123-xyz' });
  });

  it('a used or expired link says so', async () => {
    const u = userEvent.setup();
    stubApi(({ path }) => {
      if (path === '/security/not-me')
        return fail(400, 'This link is invalid, already used or expired.', 'invalid_link');
    });
    renderApp(<AccountLink />, { path: '/not-me#token=abc' });
    await u.click(await screen.findByRole('button', { name: 'Secure my account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This link is invalid, already used or expired.');
  });

  it('confirming an address asks to sign in first; nothing is sent without a session', async () => {
    const api = stubApi(() => undefined);
    renderApp(<AccountLink />, { path: '/confirm-address#token=abc' });
    expect(await screen.findByRole('button', { name: 'Sign in to confirm' })).toBeTruthy();
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
