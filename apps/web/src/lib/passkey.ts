import * as z from 'zod/mini';
import { queryOptions } from '@tanstack/react-query';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { passkeysResponse, type Assertion } from '@harvest/shared/schemas/passkeys';
import type { StepUpInput } from '@harvest/shared/schemas/step-up';
import { api, hasCode } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

const isObject = (v: unknown) => typeof v === 'object' && v !== null;
/** The server's WebAuthn options, in WebAuthn's JSON form: @simplewebauthn/browser checks them when it uses them. */
export const creationOptions = z.object({ options: z.custom<PublicKeyCredentialCreationOptionsJSON>(isObject) });
export const requestOptions = z.object({ options: z.custom<PublicKeyCredentialRequestOptionsJSON>(isObject) });

/** The account's passkeys (Profile lists them; a step-up is asked for when there is one). */
export const passkeysQuery = () =>
  queryOptions({ queryKey: queryKeys.account.passkeys, queryFn: () => api('/user/passkeys', passkeysResponse) });

/**
 * The passkey assertion that confirms exactly this request (its challenge is bound to it on the server): the browser
 * asks the person for their passkey. @simplewebauthn/browser loads only when one is used.
 */
export async function confirmWithPasskey(body: StepUpInput) {
  const { options } = await api('/user/step-up', requestOptions, { method: 'POST', body });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  // The server reads no extension outputs.
  return { ...(await startAuthentication({ optionsJSON: options })), clientExtensionResults: {} };
}

/**
 * Sends a request that an account with a passkey must confirm: first as it is (without a passkey today's passwords
 * apply), and when the server answers `passkey_required`, once more with the passkey's assertion for `stepUp`.
 */
export async function withStepUp<R>(send: (passkey?: Assertion) => Promise<R>, stepUp: StepUpInput): Promise<R> {
  try {
    return await send();
  } catch (err) {
    if (!hasCode(err, 'passkey_required')) throw err;
    return send(await confirmWithPasskey(stepUp));
  }
}
