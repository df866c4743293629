import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import { fail, stubApi } from '../../../test/api-stub.ts';
import { renderApp } from '../../../test/render.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { LoginForm } from './login-form.tsx';
import { SignupForm } from './signup-form.tsx';

/** The error text under a field (its aria-describedby), not the toast. */
function fieldError(label: string): string | null {
  const input = screen.getByLabelText(label, { exact: true });
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').find((t) => t) ?? null;
}

describe('LoginForm', () => {
  it('a session signed out from another device is said so when this window comes back, not "expired"', async () => {
    localStorage.setItem('token', 'tok');
    let revoked = false;
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
      depositAddress: '0x1111111111111111111111111111111111111111',
      withdrawalWallet: null,
      invitationCode: null,
      twoFactorEnabled: false,
      locale: 'en',
      withdrawalLock: { status: 'off', endsAt: null, required: false },
      withdrawalsFrozen: false,
      cycleReminders: false,
      createdAt: '2026-11-01T00:00:00.000Z',
    };
    const api = stubApi(({ path }) => {
      if (path !== '/user/me') return undefined;
      if (revoked) return fail(401, TEXT.sessionEndedElsewhere, 'session_revoked');
      return { user, platform: { timeZone: 'UTC', demoDeposits: true } };
    });
    const Status = () => <output aria-label="session">{useAuth().status}</output>;
    renderApp(
      <>
        <Status />
        <LoginForm />
      </>,
    );
    await waitFor(() => expect(screen.getByLabelText('session').textContent).toBe('authenticated'));
    revoked = true;
    // The window comes back (once the provider has taken the signed-in state in: it listens from then on).
    await waitFor(() => {
      fireEvent.focus(window);
      expect(api.to('GET /user/me').length).toBeGreaterThan(1);
    });
    expect(await screen.findByText(TEXT.sessionEndedElsewhere, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText(TEXT.sessionExpired)).toBeNull();
    expect(screen.getByLabelText('session').textContent).toBe('anonymous');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('asks for e-mail and password before calling the server, next to each field and in a toast', async () => {
    const api = stubApi(() => undefined);
    renderApp(<LoginForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(fieldError('Email')).toBe(TEXT.loginRequired));
    expect(fieldError('Password')).toBe(TEXT.loginRequired);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    // Two fields and the toast.
    await waitFor(() => expect(screen.getAllByText(TEXT.loginRequired)).toHaveLength(3));
    expect(api.calls.filter((c) => c.path === '/login')).toHaveLength(0);
  });

  it("shows the server's text, or 'Login failed' when it sent none", async () => {
    let n = 0;
    stubApi(({ path }) => {
      if (path !== '/login') return undefined;
      return n++ === 0
        ? fail(401, 'Invalid email or password', 'invalid_credentials')
        : new Response('', { status: 502 });
    });
    renderApp(<LoginForm />);
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const form = screen.getByRole('button', { name: 'Sign In' }).closest('form') as HTMLElement;
    expect(await within(form).findByText('Invalid email or password')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await within(form).findByText(TEXT.loginFailed)).toBeTruthy();
  });
});

describe('SignupForm', () => {
  it('pre-fills the invitation code and defaults the country code to +1', async () => {
    renderApp(<SignupForm />, { path: '/signup?code=ABCDE12345' });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Invitation Code').value).toBe('ABCDE12345'));
    const select = screen.getByLabelText<HTMLSelectElement>('Country code');
    expect(select.value).toBe('US');
    expect(select.options.length).toBeGreaterThan(230);
    expect(select.selectedOptions[0]?.textContent).toBe('United States (+1)');
    // Closed, the selector shows only the short form, which fits beside the number.
    expect(select.nextElementSibling?.textContent).toBe('US +1');
  });

  it("gives 'Please enter email first' for Send Otp without an e-mail; an empty submit says it once and marks each field", async () => {
    const api = stubApi(() => undefined);
    renderApp(<SignupForm />, { path: '/signup' });
    await userEvent.click(screen.getByRole('button', { name: 'Send Otp' }));
    await waitFor(() => expect(fieldError('Email')).toBe(TEXT.emailFirst));
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    const form = screen.getByRole('button', { name: 'Create Account' }).closest('form') as HTMLElement;
    // One summary in the form (the toast aside), not the same sentence under eight fields: the spec's text alone.
    await waitFor(() => expect(within(form).getAllByText(new RegExp(TEXT.signupAllRequired))).toHaveLength(1));
    expect(within(form).getByText(new RegExp(TEXT.signupAllRequired)).textContent).toBe(TEXT.signupAllRequired);
    const labels = ['Invitation Code', 'First Name', 'Last Name', 'Verification Code', 'Phone Number', 'Password'];
    for (const label of labels) {
      expect(screen.getByLabelText(label, { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(fieldError(label)).toContain(TEXT.signupAllRequired);
    }
    expect(api.calls.filter((c) => c.path === '/register')).toHaveLength(0);
  });

  it('says which field is too long and its limit; the inputs carry the limits', async () => {
    stubApi(() => undefined);
    renderApp(<SignupForm />, { path: '/signup?code=ABCDE12345' });
    const first = screen.getByLabelText<HTMLInputElement>('First Name', { exact: true });
    expect(first.maxLength).toBe(100);
    expect(screen.getByLabelText<HTMLInputElement>('Email', { exact: true }).maxLength).toBe(254);
    // A value set by script or autofill is not held to maxlength: the form still says what is wrong.
    await userEvent.click(first);
    await userEvent.paste('x'.repeat(300));
    expect(first.value).toHaveLength(100);
    fireEvent.input(first, { target: { value: 'x'.repeat(300) } });
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(fieldError('First Name')).toBe('First name must be at most 100 characters'));
  });

  it('reports a rule at its field: mismatched passwords at Confirm Password', async () => {
    stubApi(() => undefined);
    renderApp(<SignupForm />, { path: '/signup?code=ABCDE12345' });
    const type = (label: string, text: string) => userEvent.type(screen.getByLabelText(label, { exact: true }), text);
    await type('First Name', 'Ada');
    await type('Last Name', 'Lovelace');
    await type('Email', 'ada@example.com');
    await type('Verification Code', '123456');
    await type('Phone Number', '2025550123');
    await type('Password', 'secret1');
    await type('Confirm Password', 'secret2');
    await type('Withdrawal Password', 'another1');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(fieldError('Confirm Password')).toBe(TEXT.passwordsMismatch));
    expect(fieldError('Phone Number')).toBeNull();
  });
});
