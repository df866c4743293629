import {
  profileResponse,
  updateEmailResponse,
  type ProfileInput,
  type UpdateEmailInput,
} from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';

export const updateProfile = (body: ProfileInput) => api('/user/profile', profileResponse, { method: 'PUT', body });
export const updateEmail = (body: UpdateEmailInput) =>
  api('/user/admin/update-email', updateEmailResponse, { method: 'PUT', body });
