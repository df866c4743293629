import { messageResponse } from '@harvest/shared/schemas/common';
import { addPasskeyResponse } from '@harvest/shared/schemas/passkeys';
import { api } from '../../../lib/api-client.ts';
import { creationOptions } from '../../../lib/passkey.ts';

const browser = () => import('@simplewebauthn/browser');

/** Makes a passkey on this device for the account and registers it under `name`, once the password (and code) let it. */
export async function addPasskey(name: string, password: string, totpCode?: string) {
  const { options } = await api('/user/passkeys/registration-options', creationOptions, {
    method: 'POST',
    body: { password, ...(totpCode ? { totpCode } : {}) },
  });
  const response = await (await browser()).startRegistration({ optionsJSON: options });
  return api('/user/passkeys', addPasskeyResponse, { method: 'POST', body: { name, response } });
}

export const removePasskey = (id: string, password: string, totpCode?: string) =>
  api(`/user/passkeys/${id}/remove`, messageResponse, {
    method: 'POST',
    body: { password, ...(totpCode ? { totpCode } : {}) },
  });
