import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import {
  call,
  createTestApp,
  fund,
  makeUser,
  signupBody,
  uniqueEmail,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { tokenNow } from '../../../test/support/investments.ts';
import { hashOf, WALLET } from '../../../test/support/money.ts';
import { deliverOutbox } from '../../mail/outbox.ts';

/**
 * The person's language on the account: PUT /api/user/preferences keeps it, GET /api/user/me says it,
 * the signup page's language becomes the account's, and that person's e-mails (through the outbox and a real SMTP
 * server) and statements are written in it. API errors keep their English text (the spec's contract).
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ PLATFORM_TIMEZONE: 'UTC' });
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const prefer = (u: TestUser, body: unknown) => call(t, 'PUT', '/api/user/preferences', { token: u.token, body });

async function onlyMailTo(email: string) {
  await deliverOutbox(t.ctx);
  const mails = t.smtp.mailsTo(email);
  expect(mails).toHaveLength(1);
  const [mail] = mails;
  if (!mail) throw new Error('no mail');
  return mail;
}

describe('PUT /api/user/preferences and GET /api/user/me', () => {
  it('a new account reads English; the chosen language is kept and read back', async () => {
    const u = await makeUser(t);
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).data.user.locale).toBe('en');
    const res = await prefer(u, { locale: 'ru' });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({ _id: u.user.id, locale: 'ru' });
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).data.user.locale).toBe('ru');
  });

  it('refuses a language the platform does not speak (English error, code validation) and changes nothing', async () => {
    const u = await makeUser(t);
    await prefer(u, { locale: 'ar' });
    for (const body of [{ locale: 'xx' }, { locale: 'EN' }, {}, { locale: 'ru', extra: 1 }]) {
      const res = await prefer(u, body);
      expect(res.statusCode).toBe(400);
      expect(res.data.code).toBe('validation');
      expect(typeof res.data.error).toBe('string');
    }
    expect((await call(t, 'GET', '/api/user/me', { token: u.token })).data.user.locale).toBe('ar');
  });

  it('needs a session', async () => {
    const res = await call(t, 'PUT', '/api/user/preferences', { body: { locale: 'ru' } });
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ error: MSG.unauthorized, code: 'unauthorized' });
  });
});

describe('signup in a language', () => {
  it('the verification code comes in the signup page’s language, and the account keeps it', async () => {
    const inviter = await makeUser(t);
    const email = uniqueEmail('es');
    const sent = await call(t, 'POST', '/api/send-code', { body: { email, locale: 'es' } });
    expect(sent.statusCode).toBe(200);
    // The API's answer stays English (the spec's contract); the e-mail is Spanish.
    expect(sent.data.message).toBe(MSG.codeSent);
    const [mail] = t.smtp.mailsTo(email);
    expect(mail?.subject).toBe('Tu código de verificación de Harvest Farm');
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(mail?.text).toContain(`Tu código de verificación de Harvest Farm es ${code}.`);
    expect(mail?.text).toContain('Es válido durante 10 minutos.');
    const res = await call(t, 'POST', '/api/register', {
      body: signupBody({
        invitationCode: inviter.user.invitationCode,
        email,
        verificationCode: code,
        firstName: 'Lucía',
        lastName: 'Pérez',
        phone: '+34 612345678',
        locale: 'es',
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.user.locale).toBe('es');
  });

  it('without a language the code e-mail is the spec’s English', async () => {
    const email = uniqueEmail('en');
    await call(t, 'POST', '/api/send-code', { body: { email } });
    expect(t.smtp.mailsTo(email)[0]?.subject).toBe('Your Harvest Farm verification code');
  });
});

describe("e-mails in the recipient's language", () => {
  it('Russian: a password change, with the greeting and the date in Russian', async () => {
    t.clock.set(new Date('2026-11-18T02:30:00Z'));
    const u = await makeUser(t, { firstName: 'Анна' });
    await prefer(u, { locale: 'ru' });
    const res = await call(t, 'PUT', '/api/user/profile', {
      token: await tokenNow(t, u),
      body: {
        firstName: 'Анна',
        lastName: 'B',
        currentPassword: u.password,
        newPassword: 'brand-new-pass',
        confirmPassword: 'brand-new-pass',
      },
    });
    expect(res.statusCode).toBe(200);
    const mail = await onlyMailTo(u.user.email);
    expect(mail.subject).toBe('Ваш пароль изменён');
    expect(mail.text).toContain('Здравствуйте, Анна!');
    expect(mail.text).toContain('Пароль для входа в ваш аккаунт изменён; остальные сеансы завершены.');
    expect(mail.text).toMatch(/Дата:\s+18 нояб\. 2026 г\., 02:30 \(UTC\)/);
    expect(mail.html).toContain('<html lang="ru">');
  });

  it('Arabic: a confirmed deposit, right to left, with the amounts in Western digits', async () => {
    const u = await makeUser(t, { firstName: 'Layla' });
    await prefer(u, { locale: 'ar' });
    await fund(t, u.user.id, 1_250_000n);
    const token = await tokenNow(t, u);
    const dep = await call(t, 'POST', '/api/user/process-deposit', {
      token,
      body: { txHash: hashOf(7101), amount: '1234.5', fromAddress: WALLET },
    });
    const ok = await call(t, 'POST', '/api/admin/process-deposit', {
      token: await tokenNow(t, admin),
      body: { depositId: dep.data.deposit._id },
    });
    expect(ok.statusCode).toBe(200);
    const mail = await onlyMailTo(u.user.email);
    expect(mail.subject).toBe('تم تأكيد الإيداع: 1,234.50 USDC');
    expect(mail.text).toContain('مرحبًا Layla،');
    expect(mail.text).toContain('تم تأكيد إيداعك بقيمة 1,234.50 USDC وإضافته إلى رصيدك.');
    expect(mail.text).toMatch(/الرصيد الجديد:\s+1,235\.75 USDC/);
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
  });

  it('a failure reason the catalogue knows is translated; one an administrator typed stays as written', async () => {
    const u = await makeUser(t, { firstName: 'Олег' });
    await prefer(u, { locale: 'ru' });
    const token = await tokenNow(t, u);
    for (const reason of ['Below the minimum deposit', 'Sender {unknown}: <b>check</b> it']) {
      const dep = await call(t, 'POST', '/api/user/process-deposit', {
        token,
        body: { txHash: hashOf(reason.length + 7200), amount: '3', fromAddress: WALLET },
      });
      const res = await call(t, 'POST', '/api/admin/reject-deposit', {
        token: await tokenNow(t, admin),
        body: { depositId: dep.data.deposit._id, reason },
      });
      expect(res.statusCode).toBe(200);
    }
    await deliverOutbox(t.ctx);
    const [known, typed] = t.smtp.mailsTo(u.user.email);
    expect(known?.subject).toBe('Депозит не прошёл: 3,00 USDC');
    expect(known?.text).toMatch(/Причина:\s+Ниже минимального депозита/);
    expect(typed?.text).toContain('Sender {unknown}: <b>check</b> it');
    expect(typed?.html).toContain('Sender {unknown}: &lt;b&gt;check&lt;/b&gt; it');
  });

  it('Spanish: an account-security e-mail (a withdrawal address added), its links and labels in Spanish', async () => {
    t.clock.set(new Date('2026-11-18T02:30:00Z'));
    const u = await makeUser(t, { firstName: 'Lucía' });
    await prefer(u, { locale: 'es' });
    // Signed in from Chrome on Linux: the e-mail names that device in Spanish.
    const userAgent =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
    const login = await call(t, 'POST', '/api/login', {
      body: { email: u.user.email, password: u.password },
      headers: { 'user-agent': userAgent },
    });
    expect(login.statusCode).toBe(200);
    const res = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token: login.data.token,
      body: { label: 'Mi Ledger', address: '0x52908400098527886E0F7030069857D2E4169EE7', password: u.password },
    });
    expect(res.statusCode).toBe(201);
    await deliverOutbox(t.ctx);
    const mail = t.smtp.mailsTo(u.user.email).find((m) => m.subject.startsWith('Nueva dirección'));
    if (!mail) throw new Error('no address e-mail');
    expect(mail.subject).toBe('Nueva dirección de retiro añadida: Mi Ledger');
    expect(mail.text).toContain('Hola, Lucía:');
    expect(mail.text).toMatch(/Etiqueta:\s+Mi Ledger/);
    expect(mail.text).toMatch(/Dispositivo:\s+Chrome 140 en Linux/);
    expect(mail.text).toMatch(/Confirmar esta dirección: http\S+\/confirm-address#token=/);
    expect(mail.text).toMatch(/No fui yo: proteger mi cuenta: http\S+\/not-me#token=/);
    expect(mail.text).toContain('El enlace de confirmación funciona una sola vez, durante 1 hora.');
  });

  it('English stays the spec’s words', async () => {
    const u = await makeUser(t, { firstName: 'Ada' });
    const dep = await call(t, 'POST', '/api/user/process-deposit', {
      token: await tokenNow(t, u),
      body: { txHash: hashOf(7102), amount: '2', fromAddress: WALLET },
    });
    await call(t, 'POST', '/api/admin/process-deposit', {
      token: await tokenNow(t, admin),
      body: { depositId: dep.data.deposit._id },
    });
    const mail = await onlyMailTo(u.user.email);
    expect(mail.subject).toBe('Deposit confirmed: 2.00 USDC');
    expect(mail.text).toContain('Hello Ada,');
  });
});

describe('statements in the investor’s language', () => {
  it('the on-screen statement and its CSV describe the movements in Russian', async () => {
    t.clock.set(new Date('2026-11-18T02:30:00Z'));
    const u = await makeUser(t);
    await prefer(u, { locale: 'ru' });
    await fund(t, u.user.id, 5_000_000n);
    const json = await call(t, 'GET', '/api/user/statement?from=2026-11-01&to=2026-11-30', {
      token: await tokenNow(t, u),
    });
    expect(json.statusCode).toBe(200);
    expect(json.data.movements.length).toBeGreaterThan(0);
    for (const m of json.data.movements as { description: string }[]) expect(m.description).toMatch(/[а-яё]/i);
    const csv = await call(t, 'GET', '/api/user/statement?from=2026-11-01&to=2026-11-30&format=csv', {
      token: await tokenNow(t, u),
    });
    expect(csv.body).toContain('Начальный баланс');
  });
});
