import { invitationResponse } from '@harvest/shared/schemas/user';
import { api } from '../../../lib/api-client.ts';

export const generateInvitation = () =>
  api('/user/generate-invitation', invitationResponse, { method: 'POST', body: {} });

/** The signup URL built from the site origin, the path /signup and query code (spec section 3). */
export const signupUrl = (code: string) => `${window.location.origin}/signup?code=${encodeURIComponent(code)}`;
