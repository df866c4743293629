import { z } from 'zod';
import { userSchema, type ProfileInput } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';

export const updateProfile = (body: ProfileInput) =>
  api('/user/profile', z.object({ user: userSchema, token: z.string().optional() }), { method: 'PUT', body });
export const updateEmail = (newEmail: string) =>
  api('/user/admin/update-email', z.object({ user: userSchema }), { method: 'PUT', body: { newEmail } });
