import * as z from 'zod/mini';
import { MAX_LENGTH } from '../constants.ts';
import { msg } from '../i18n.ts';
import { TEXT, tooLongText } from '../texts.ts';
import { isoDate, requiredText, saidFields } from './common.ts';

/*
 * Passkeys (WebAuthn): registering and removing them in Profile, signing in with one, and the step-up assertion that
 * confirms one exact request (Withdraw All, adding an address, turning the lock off, a staff approval).
 */

export const passkeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: isoDate,
  lastUsedAt: z.nullable(isoDate),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeysResponse = z.object({ passkeys: z.array(passkeySchema) });

/** The ways an authenticator is reached (WebAuthn's AuthenticatorTransport). */
export const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;

const b64url = z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/));

/** What `navigator.credentials.create` gave, as @simplewebauthn/browser sends it (checked by @simplewebauthn/server). */
export const registrationResponseSchema = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.optional(z.array(z.enum(TRANSPORTS)).check(z.maxLength(10))),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
});

/** What `navigator.credentials.get` gave: an assertion. */
export const assertionSchema = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: z.optional(b64url),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
});
export type Assertion = z.input<typeof assertionSchema>;

/** WebAuthn options for the browser (PublicKeyCredential{Creation,Request}OptionsJSON), passed on as they are. */
export const webauthnOptionsResponse = z.object({ options: z.record(z.string(), z.unknown()) });

const currentPassword = z
  .string({ error: TEXT.currentPasswordRequiredForChange })
  .check(z.minLength(1, TEXT.currentPasswordRequiredForChange), z.maxLength(200, TEXT.currentPasswordWrong));

export const addPasskeyBody = z.strictObject({
  name: requiredText(
    TEXT.passkeyNameRequired,
    MAX_LENGTH.passkeyName,
    tooLongText(msg('Name'), MAX_LENGTH.passkeyName),
  ),
  response: registrationResponseSchema,
});
export const addPasskeyResponse = z.object({ message: z.string(), ...saidFields, passkey: passkeySchema });

/**
 * Adding a passkey (its registration options) or removing one: the login password and, when it is on, the
 * authenticator code. A session alone is not enough: a stolen one would add a thief's passkey, a second factor of
 * their own.
 */
export const removePasskeyBody = z.strictObject({
  password: currentPassword,
  totpCode: z.optional(z.string().check(z.trim(), z.maxLength(MAX_LENGTH.authCode))),
});
export const registrationOptionsBody = removePasskeyBody;

export const passkeySignInBody = z.strictObject({
  response: assertionSchema,
  deviceId: z.optional(z.string().check(z.maxLength(100))),
});
