import { authResponse } from '@harvest/shared/schemas/auth';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { api } from '../../../lib/api-client.ts';
import { deviceId } from '../../../lib/device-id.ts';
import { requestOptions } from '../../../lib/passkey.ts';

const finish = (response: AuthenticationResponseJSON) =>
  api('/passkey-login', authResponse, { method: 'POST', body: { response, deviceId: deviceId() } });

/** Signs in with a passkey the browser offers for this site (a discoverable credential). */
export async function signInWithPasskey() {
  const { options } = await api('/passkey-login/options', requestOptions, { method: 'POST' });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return finish(await startAuthentication({ optionsJSON: options }));
}

/**
 * Offers the site's saved passkeys in the e-mail field's autofill (conditional mediation, where the browser has it)
 * until `signal` aborts: signs in with the one chosen. Null when nothing was chosen: the browser cannot offer them,
 * the options could not be had, or the offer was aborted (the password form or the passkey button took over).
 * Rejects only when the server refuses the chosen passkey.
 */
export async function signInFromAutofill(signal: AbortSignal) {
  const { browserSupportsWebAuthnAutofill, startAuthentication, WebAuthnAbortService } =
    await import('@simplewebauthn/browser');
  if (!(await browserSupportsWebAuthnAutofill()) || signal.aborted) return null;
  const got = await api('/passkey-login/options', requestOptions, { method: 'POST' }).catch(() => null);
  if (!got || signal.aborted) return null;
  // Only while this offer is the browser's ceremony: afterwards the button's may be.
  const stop = () => WebAuthnAbortService.cancelCeremony();
  signal.addEventListener('abort', stop, { once: true });
  let response: AuthenticationResponseJSON;
  try {
    response = await startAuthentication({ optionsJSON: got.options, useBrowserAutofill: true });
  } catch {
    // Aborted, or the browser would not offer them here (an address, not a domain, as the relying party).
    return null;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return finish(response);
}
