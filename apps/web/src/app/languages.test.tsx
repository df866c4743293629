import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '@harvest/shared/schemas/admin';
import { TEXT } from '@harvest/shared/texts';
import { TopBar } from './top-bar.tsx';
import { LoginForm } from '../features/auth/components/login-form.tsx';
import { SecurityActivity } from '../features/account-security/components/security-activity.tsx';
import { RecentDeposits } from '../features/deposits/components/recent-deposits.tsx';
import { AddAddressForm } from '../features/withdrawals/components/address-book.tsx';
import { UpdateBalanceForm } from '../features/admin-balance/components/update-balance-form.tsx';
import { fail, stubApi } from '../test/api-stub.ts';
import { renderApp } from '../test/render.tsx';
import { ApiError, errorText } from '../lib/api-client.ts';
import { count, dateTime, ltr, percent, tierWithAmount, usdc, usdcNumber } from '../lib/format.ts';
import { I18nProvider, initialLocale, localeUnsaved, setLocale, t } from '../lib/i18n.tsx';

/*
 * The screens' language: the browser's on a first visit, the catalogue loaded on demand, the page laid
 * out in the language's direction, and what the server says in English shown in the chosen language.
 */
afterEach(async () => {
  await setLocale('en', { remember: false });
});

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
  depositAddress: '0x1',
  withdrawalWallet: null,
  invitationCode: null,
  twoFactorEnabled: false,
  locale: 'en',
  withdrawalLock: { status: 'off', endsAt: null, required: false },
  withdrawalsFrozen: false,
  cycleReminders: false,
  createdAt: '2026-11-01T00:00:00.000Z',
};

describe('choosing the language', () => {
  it("starts a first visit in the browser's language (the closest one we have), else English", () => {
    const languages = (tags: string[]) => vi.stubGlobal('navigator', { ...navigator, languages: tags });
    languages(['ru-RU', 'en']);
    expect(initialLocale()).toBe('ru');
    languages(['pt-PT']);
    expect(initialLocale()).toBe('pt-BR');
    languages(['zh-TW', 'en']);
    expect(initialLocale()).toBe('zh-CN');
    languages(['de-DE', 'fr']);
    expect(initialLocale()).toBe('en');
    // A language chosen in this browser before wins over the browser's.
    localStorage.setItem('locale', 'tr');
    expect(initialLocale()).toBe('tr');
  });

  it('the header menu switches the page (lang, texts) and, signed out, keeps the choice for the next sign-in', async () => {
    stubApi(() => undefined);
    renderApp(<TopBar />);
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'ru');
    await waitFor(() => expect(document.documentElement.lang).toBe('ru'));
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem('locale')).toBe('ru');
    expect(localeUnsaved()).toBe(true);
    expect(t('Investment Platform')).toBe('Инвестиционная платформа');
  });

  it('a language change redraws the form in place: what was typed stays, the labels change', async () => {
    stubApi(() => undefined);
    const valueOf = (label: string) => (screen.getByLabelText(label, { exact: true }) as HTMLInputElement).value;
    const first = renderApp(
      <I18nProvider>
        <TopBar />
        <LoginForm />
      </I18nProvider>,
    );
    const email = screen.getByLabelText('Email');
    await userEvent.type(email, 'ada@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'ru');
    await screen.findByRole('heading', { name: 'С возвращением' });
    expect(valueOf('Эл. почта')).toBe('ada@example.com');
    // The same field, not a new one drawn from scratch.
    expect(screen.getByLabelText('Эл. почта')).toBe(email);
    await userEvent.type(screen.getByLabelText('Пароль', { exact: true }), 'typed secret');
    expect(valueOf('Пароль')).toBe('typed secret');
    first.unmount();
    renderApp(
      <I18nProvider>
        <LoginForm />
      </I18nProvider>,
    );
    expect(valueOf('Эл. почта')).toBe('');
    expect(valueOf('Пароль')).toBe('');
  });

  it('signed in, the choice is saved on the account (PUT /api/user/preferences)', async () => {
    localStorage.setItem('token', 'token');
    const api = stubApi(({ method, path, body }) => {
      if (path === '/user/me') return { user };
      if (method === 'PUT' && path === '/user/preferences') return { user: { ...user, ...(body as object) } };
      return undefined;
    });
    const { container } = renderApp(<TopBar />);
    // Signed in: the header holds the place of the account menu, or shows it (its chunk loaded by an earlier file).
    await waitFor(() =>
      expect(
        container.querySelector('header [aria-hidden="true"].w-32') ??
          screen.queryByRole('button', { name: /Profile menu/ }),
      ).toBeTruthy(),
    );
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'ar');
    await waitFor(() => expect(api.to('PUT /user/preferences')).toHaveLength(1));
    expect(api.to('PUT /user/preferences')[0]?.body).toEqual({ locale: 'ar' });
    expect(localeUnsaved()).toBe(false);
  });

  it("signed in elsewhere in another language, the account's language is taken", async () => {
    localStorage.setItem('token', 'token');
    stubApi(({ path }) => (path === '/user/me' ? { user: { ...user, locale: 'es' } } : undefined));
    renderApp(<TopBar />);
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));
  });
});

describe('Russian', () => {
  it('the sign-in screen, its validation and the server’s errors are in Russian', async () => {
    await setLocale('ru');
    stubApi(({ path }) =>
      path === '/login' ? fail(401, 'Invalid email or password', 'invalid_credentials') : undefined,
    );
    renderApp(<LoginForm />);
    expect(screen.getByRole('heading', { name: 'С возвращением' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    // The shared schema's English text, shown in Russian under the field.
    await userEvent.type(screen.getByLabelText('Эл. почта'), 'a@b.co');
    await userEvent.type(screen.getByLabelText('Пароль', { exact: true }), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    const form = screen.getByRole('button', { name: 'Войти' }).closest('form') as HTMLElement;
    expect(await within(form).findByText('Неверная эл. почта или пароль')).toBeTruthy();
  });

  it('a server text the catalogue lacks is said by its code; one with values by its template', async () => {
    await setLocale('ru');
    expect(errorText(new ApiError(400, 'Some new server text', 'insufficient_funds'), TEXT.investFailed)).toBe(
      'Недостаточно средств',
    );
    expect(errorText(new ApiError(0, null), TEXT.investFailed)).toBe('Вложение не выполнено');
    const said = (
      error: string,
      code: 'too_early' | 'validation',
      template: string,
      params: Record<string, number | string>,
    ) => errorText(new ApiError(400, error, code, { template, params }), TEXT.investFailed);
    expect(
      said('This cycle is not finished yet: 1h 2m left.', 'too_early', 'This cycle is not finished yet: {left} left.', {
        left: 3_720_000,
      }),
    ).toBe('Этот цикл ещё не закончился: осталось 1 ч 2 мин.');
    expect(
      said('First name must be at most 100 characters', 'validation', '{field} must be at most {max} characters', {
        field: 'First name',
        max: 100,
      }),
    ).toBe('Имя: не более 100 символов');
  });

  it('security activity: the devices and the details the server writes in English are in Russian', async () => {
    await setLocale('ru');
    const at = '2026-11-27T10:00:00.000Z';
    const event = (
      type: string,
      detail: string | null,
      device: string | null,
      detailSaid: { template: string; params: Record<string, string | number> } | null = null,
    ) => ({ type, at, ip: '203.0.113.7', device, detail, detailSaid });
    const ends = '2026-11-29T01:00:00.000Z';
    stubApi(({ path }) =>
      path.startsWith('/user/security-events')
        ? {
            events: [
              event('session_revoked', 'Safari 17 on iPhone (198.51.100.2)', 'Chrome 140 on Linux', {
                template: '{device} ({ip})',
                params: { device: 'Safari 17 on iPhone', ip: '198.51.100.2' },
              }),
              event('session_revoked', 'Signed out', 'Unknown device'),
              event('withdrawal_lock_off_confirmed', `Ends ${ends}`, 'curl/8.5.0', {
                template: 'Ends {at}',
                params: { at: ends },
              }),
              // Stored before details kept their values: shown as it is.
              event('sessions_revoked', 'Ends soon (2 of them)', null),
            ],
            pagination: { page: 1, pageSize: 10, total: 3 },
          }
        : undefined,
    );
    renderApp(<SecurityActivity />);
    expect(await screen.findByText('Safari 17 на iPhone (198.51.100.2)')).toBeTruthy();
    expect(screen.getByText('Chrome 140 на Linux · 203.0.113.7')).toBeTruthy();
    expect(screen.getByText('Неизвестное устройство · 203.0.113.7')).toBeTruthy();
    expect(screen.getByText('Вы вышли')).toBeTruthy();
    expect(screen.getByText(`Заканчивается ${dateTime('2026-11-29T01:00:00.000Z')}`)).toBeTruthy();
    expect(dateTime('2026-11-29T01:00:00.000Z')).toMatch(/29 нояб/);
    // An agent the server could not name is shown as it came.
    expect(screen.getByText('curl/8.5.0 · 203.0.113.7')).toBeTruthy();
    expect(screen.getByText('Ends soon (2 of them)')).toBeTruthy();
  });

  it('a failed deposit says its reason by its template and values, again on a language change; an old one as it is', async () => {
    await setLocale('es');
    const from = '0x00000000000000000000000000000000000000a1';
    const entered = '0x00000000000000000000000000000000000000b2';
    const deposit = (id: string, failureReason: string, failureSaid: unknown) => ({
      _id: id,
      amount: 2,
      status: 'failed',
      type: 'real',
      txHash: `0x${id.repeat(64)}`,
      fromAddress: entered,
      createdAt: '2026-11-27T10:00:00.000Z',
      processedAt: '2026-11-27T10:05:00.000Z',
      confirmations: 0,
      requiredConfirmations: 12,
      failureReason,
      failureSaid,
      failureKind: 'wrong_sender',
      correctable: true,
      userId: 'u1',
    });
    stubApi(({ path }) =>
      path.startsWith('/user/deposit-history')
        ? {
            deposits: [
              deposit(
                'a',
                `Wrong sender: the USDC in this transaction came from ${from}, not from the address you entered (${entered}). Enter the address you sent from.`,
                {
                  template:
                    'Wrong sender: the USDC in this transaction came from {from}, not from the address you entered ({entered}). Enter the address you sent from.',
                  params: { from, entered },
                },
              ),
              deposit('b', 'Wrong sender: nothing came from that address', null),
            ],
          }
        : undefined,
    );
    renderApp(<RecentDeposits />);
    expect(
      await screen.findByText(new RegExp(`^Remitente incorrecto: el USDC de esta transacción vino de ${from}`)),
    ).toBeTruthy();
    expect(screen.getByText('Wrong sender: nothing came from that address')).toBeTruthy();
    await act(() => setLocale('ru'));
    expect(await screen.findByText(new RegExp(`^Неверный отправитель.*${from}`))).toBeTruthy();
  });

  it('numbers follow the language; USDC keeps its decimals', async () => {
    await setLocale('ru');
    expect(usdc(1234.5)).toBe('1\u00a0234,50\u00a0USDC');
    expect(usdc(1234.5, 'balance')).toBe('1\u00a0234,5000\u00a0USDC');
    expect(count(1234567)).toBe('1\u00a0234\u00a0567');
  });

  it('percentages are written the way each language writes them', async () => {
    const written: Record<string, string> = {};
    for (const l of ['en', 'es', 'ru', 'tr', 'zh-CN'] as const) {
      await setLocale(l);
      written[l] = percent(2.5);
    }
    expect(written).toEqual({ en: '2.5%', es: '2,5\u00a0%', ru: '2,5\u00a0%', tr: '%2,5', 'zh-CN': '2.5%' });
    await setLocale('tr');
    expect(t('{rate} daily', { rate: percent(0.0125) })).toBe('Günlük %0,0125');
    expect(percent(110, { min: 1, max: 1 })).toBe('%110,0');
  });
});

describe('a server error at a field', () => {
  /** The error text under a field (its aria-describedby), not the toast. */
  const fieldError = (label: string) => {
    const ids = (screen.getByLabelText(label).getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent ?? '').find((x) => x) ?? null;
  };

  it('goes to the field the server names, in any language, and is said again when the language changes', async () => {
    stubApi(({ method, path }) =>
      method === 'POST' && path === '/user/withdrawal-addresses'
        ? { ...fail(409, 'This address is already in your address book', 'conflict'), field: 'address' }
        : undefined,
    );
    renderApp(<AddAddressForm onDone={() => undefined} onCancel={() => undefined} />);
    await userEvent.type(screen.getByLabelText('Label'), 'Cold wallet');
    await userEvent.type(
      screen.getByLabelText('Wallet address (Polygon USDC)'),
      '0x00000000000000000000000000000000000000b2',
    );
    await userEvent.type(screen.getByLabelText('Login password'), 'password-1');
    await act(() => setLocale('ru'));
    await userEvent.click(screen.getByRole('button', { name: 'Добавить адрес' }));
    await waitFor(() =>
      expect(fieldError('Адрес кошелька (USDC в сети Polygon)')).toBe('Этот адрес уже есть в вашей адресной книге'),
    );
    await act(() => setLocale('es'));
    expect(fieldError('Dirección del monedero (USDC en Polygon)')).toBe(
      'Esta dirección ya está en su libreta de direcciones',
    );
  });
});

describe("a server's error with values", () => {
  const investor: AdminUser = {
    _id: 'u2',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.com',
    phone: null,
    isAdmin: false,
    isBlocked: false,
    withdrawalsFrozen: false,
    createdAt: '2026-11-01T00:00:00.000Z',
    withdrawalWallet: null,
    balance: 10,
    totalInvestment: 0,
    totalEarnings: 0,
    referralRewards: 0,
    totalDeposits: 10,
    totalAdjustments: 0,
  };
  const balanceChanged = {
    __status: 409,
    error: 'The balance changed to 12,345.50\u00a0USDC. Review and try again.',
    code: 'balance_changed',
    template: 'The balance changed to {amount}\u00a0USDC. Review and try again.',
    params: { amount: '12345500000' },
  };

  it('is said in Spanish with its amount written the Spanish way, then in Arabic when the language changes', async () => {
    await setLocale('es');
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    stubApi(({ method, path }) =>
      method === 'POST' && path === '/admin/update-user-balance' ? balanceChanged : undefined,
    );
    renderApp(
      <I18nProvider>
        <UpdateBalanceForm user={investor} />
      </I18nProvider>,
    );
    await userEvent.type(screen.getByLabelText('Nuevo saldo (USDC)'), '20');
    await userEvent.click(screen.getByRole('button', { name: 'Actualizar saldo' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Actualizar saldo' }));
    const said = () => within(dialog).queryByRole('alert')?.textContent;
    await waitFor(() => expect(said()).toBe('El saldo cambió a 12.345,50\u00a0USDC. Revisa e inténtalo de nuevo.'));
    expect(window.alert).toHaveBeenCalledWith('El saldo cambió a 12.345,50\u00a0USDC. Revisa e inténtalo de nuevo.');
    // The open dialog follows a language change in place, the amount in Western digits, isolated left to right.
    await setLocale('ar');
    await waitFor(() => expect(said()).toBe('تغيّر الرصيد إلى \u206612,345.50\u2069\u00a0USDC. راجِع وحاول مرة أخرى.'));
  });
});

describe('Arabic', () => {
  it('lays the page out right to left, with Western digits in amounts', async () => {
    await setLocale('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    // Isolated left to right (LRI ... PDI): the sign and the unit stay where they are read.
    expect(usdc(1234.5)).toBe('\u20661,234.50\u00a0USDC\u2069');
    expect(usdc(-1234.5)).toMatch(/^\u2066\u200e?-1,234\.50\u00a0USDC\u2069$/);
    // A sign stays with its number, a tier's name with its amount, in the order they are read.
    expect(ltr(`+${usdcNumber(5000)}`)).toBe('\u2066+\u20665,000.00\u2069\u2069');
    expect(tierWithAmount('Gold', 1000)).toBe('\u2068Gold (\u20661,000.00\u00a0USDC\u2069)\u2069');
    expect(percent(2.5)).toMatch(/^\u20662\.5\u200e?%\u200e?\u2069$/);
    expect(t('Withdraw All')).toBe('سحب الكل');
  });
});

describe('English', () => {
  it('stays the spec’s words and number format', async () => {
    await setLocale('ru');
    await setLocale('en');
    expect(document.documentElement.dir).toBe('ltr');
    expect(t('Welcome Back')).toBe('Welcome Back');
    const error = new ApiError(400, 'This cycle is not finished yet: 1h 2m left.', 'too_early', {
      template: 'This cycle is not finished yet: {left} left.',
      params: { left: 3_720_000 },
    });
    expect(errorText(error, TEXT.investFailed)).toBe('This cycle is not finished yet: 1h 2m left.');
    expect(usdc(1234.5)).toBe('1,234.50\u00a0USDC');
  });
});
