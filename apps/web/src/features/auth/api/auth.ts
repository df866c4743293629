import * as z from 'zod/mini';
import { authResponse, type LoginInput, type RegisterInput } from '@harvest/shared/schemas/auth';
import { messageResponse } from '@harvest/shared/schemas/common';
import { api } from '../../../lib/api-client.ts';

export const login = (body: LoginInput) => api('/login', authResponse, { method: 'POST', body });
export const register = (body: RegisterInput) => api('/register', authResponse, { method: 'POST', body });
export const sendCode = (email: string) =>
  api('/send-code', z.partial(messageResponse), { method: 'POST', body: { email } });
