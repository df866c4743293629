import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import { AuthProvider } from '../../../lib/auth.tsx';
import { LoginForm } from './login-form.tsx';
import { SignupForm } from './signup-form.tsx';

function renderWith(ui: React.ReactNode, path = '/') {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <AuthProvider>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        <ToastContainer />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('LoginForm', () => {
  it('asks for e-mail and password before calling the server', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderWith(<LoginForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(TEXT.loginRequired)).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("shows the server's text, or 'Login failed' when it sent none", async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(
          new Response(JSON.stringify({ error: 'Invalid email or password', code: 'invalid_credentials' }), {
            status: 401,
          }),
        )
        .mockResolvedValueOnce(new Response('', { status: 502 })),
    );
    renderWith(<LoginForm />);
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(TEXT.loginFailed)).toBeTruthy();
  });
});

describe('SignupForm', () => {
  it('pre-fills the invitation code and defaults the country code to +1', async () => {
    renderWith(<SignupForm />, '/signup?code=ABCDE12345');
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Invitation Code').value).toBe('ABCDE12345'));
    const select = screen.getByLabelText<HTMLSelectElement>('Country code');
    expect(select.value).toBe('US');
    expect(select.options.length).toBeGreaterThan(230);
    expect(select.selectedOptions[0]?.textContent).toMatch(/^\+1 /);
  });

  it("gives 'Please enter email first' for Send Otp without an e-mail, and the required-fields message", async () => {
    renderWith(<SignupForm />, '/signup');
    await userEvent.click(screen.getByRole('button', { name: 'Send Otp' }));
    expect(await screen.findByText(TEXT.emailFirst)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText(TEXT.signupAllRequired)).toBeTruthy();
  });
});
