import { authResponse } from '@harvest/shared/schemas/auth';
import { api } from '../../../lib/api-client.ts';
import { deviceId } from '../../../lib/device-id.ts';
import { requestOptions } from '../../../lib/passkey.ts';

/** Signs in with a passkey the browser offers for this site (a discoverable credential). */
export async function signInWithPasskey() {
  const { options } = await api('/passkey-login/options', requestOptions, { method: 'POST' });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({ optionsJSON: options });
  return api('/passkey-login', authResponse, { method: 'POST', body: { response, deviceId: deviceId() } });
}
