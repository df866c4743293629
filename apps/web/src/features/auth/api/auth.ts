import * as z from 'zod/mini';
import { authResponse, type LoginInput, type RegisterInput } from '@harvest/shared/schemas/auth';
import { messageResponse } from '@harvest/shared/schemas/common';
import { api } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.tsx';

export const login = (body: LoginInput) => api('/login', authResponse, { method: 'POST', body });
// The account starts in the language the signup page shows; the code's e-mail is written in it too.
export const register = (body: RegisterInput) =>
  api('/register', authResponse, { method: 'POST', body: { ...body, locale: currentLocale() } });
export const sendCode = (email: string) =>
  api('/send-code', z.partial(messageResponse), { method: 'POST', body: { email, locale: currentLocale() } });
