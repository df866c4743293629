import { z } from 'zod';
import { userSchema, type ProfileInput, type UpdateEmailInput } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';

export const updateProfile = (body: ProfileInput) =>
  api('/user/profile', z.object({ user: userSchema, token: z.string().optional() }), { method: 'PUT', body });
export const updateEmail = (body: UpdateEmailInput) =>
  api('/user/admin/update-email', z.object({ user: userSchema }), { method: 'PUT', body });
