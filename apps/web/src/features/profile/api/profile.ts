import { profileResponse, updateEmailResponse, type ProfileInput } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';

export const updateProfile = (body: ProfileInput) => api('/user/profile', profileResponse, { method: 'PUT', body });
export const updateEmail = (newEmail: string) =>
  api('/user/admin/update-email', updateEmailResponse, { method: 'PUT', body: { newEmail } });
