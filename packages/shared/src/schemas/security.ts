import * as z from 'zod/mini';
import { MAX_LENGTH } from '../constants.ts';
import { checksumMatches } from '../address.ts';
import { hasInvisible } from '../lookalikes.ts';
import { msg } from '../i18n.ts';
import { SECURITY_TEXT } from '../security-texts.ts';
import { TEXT, tooLongText } from '../texts.ts';
import { withdrawalLockSchema } from './user.ts';
import { assertionSchema } from './passkeys.ts';
import { EVM_ADDRESS, isoDate, pageInfo, requiredText, saidFields, storedSaidSchema } from './common.ts';

/*
 * An investor's account security: the withdrawal address book and its lock, sessions, the e-mailed
 * links that confirm or report a change, and the account's security activity.
 */

/** One page of a per-account list (addresses, sessions, security events): small lists, paged by number. */
export const accountPageQuery = z.strictObject({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1),
  pageSize: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 20),
});
export type AccountPageQuery = z.input<typeof accountPageQuery>;

/** The current login password, asked again before a step that adds power. */
const loginPassword = z
  .string({ error: TEXT.currentPasswordRequiredForChange })
  .check(z.minLength(1, TEXT.currentPasswordRequiredForChange), z.maxLength(200, TEXT.currentPasswordWrong));

// ------------------------------------------------------------------ withdrawal address book

export const WITHDRAWAL_ADDRESS_STATUSES = ['unconfirmed', 'cooling_down', 'active'] as const;
export type WithdrawalAddressStatus = (typeof WITHDRAWAL_ADDRESS_STATUSES)[number];

export const withdrawalAddressSchema = z.object({
  _id: z.string(),
  label: z.string(),
  /** EIP-55 checksummed. */
  address: z.string(),
  status: z.enum(WITHDRAWAL_ADDRESS_STATUSES),
  /** Its wallet signed our one-time message for it ("Prove with my wallet"). */
  proven: z.boolean(),
  /** When it becomes usable: the end of the cool-down (for an unconfirmed one, if confirmed by then). */
  usableAt: isoDate,
  createdAt: isoDate,
});
export type WithdrawalAddress = z.infer<typeof withdrawalAddressSchema>;
export const withdrawalAddressesResponse = z.object({
  addresses: z.array(withdrawalAddressSchema),
  pagination: pageInfo,
});

export const addWithdrawalAddressBody = z.strictObject({
  label: requiredText(
    SECURITY_TEXT.labelRequired,
    MAX_LENGTH.addressLabel,
    tooLongText(msg('Label'), MAX_LENGTH.addressLabel),
  ).check(z.refine((l) => !hasInvisible(l), SECURITY_TEXT.labelInvisible)),
  address: z.pipe(
    requiredText(SECURITY_TEXT.addressRequired, 200),
    z
      .string()
      .check(z.regex(EVM_ADDRESS, TEXT.invalidWallet), z.refine(checksumMatches, TEXT.walletChecksum), z.toLowerCase()),
  ),
  password: loginPassword,
  /** With a passkey registered: its assertion for this address (POST /api/user/step-up). */
  passkey: z.optional(assertionSchema),
  /** "Prove with my wallet": the message of POST /api/user/withdrawal-addresses/proof-message and its signature. */
  message: z.optional(z.string().check(z.maxLength(2_000))),
  signature: z.optional(
    z.string().check(z.regex(/^0x([0-9a-fA-F]{2})+$/, SECURITY_TEXT.signatureInvalid), z.maxLength(20_000)),
  ),
});
export const proofMessageBody = z.strictObject({ address: addWithdrawalAddressBody.shape.address });
export const proofMessageResponse = z.object({ message: z.string() });
export type AddWithdrawalAddressInput = z.input<typeof addWithdrawalAddressBody>;
export const addWithdrawalAddressResponse = z.object({
  message: z.string(),
  ...saidFields,
  address: withdrawalAddressSchema,
});

const linkToken = z
  .string({ error: SECURITY_TEXT.linkIncomplete })
  .check(z.trim(), z.minLength(1, SECURITY_TEXT.linkIncomplete), z.maxLength(100, SECURITY_TEXT.linkIncomplete));

/** The secret of an e-mailed link (its page posts it): 43 base64url characters. */
export const linkTokenBody = z.strictObject({ token: linkToken });

/** The pages e-mailed links open. */
export const LINK_PAGES = ['confirm-address', 'confirm-lock-off', 'not-me'] as const;
export type LinkPage = (typeof LINK_PAGES)[number];

/** What a link's page shows before its button: `POST /api/security/link-preview`, which uses nothing up. */
export const linkPreviewBody = z.strictObject({ page: z.enum(LINK_PAGES), token: linkToken });
export const linkPreviewResponse = z.object({
  /** When the e-mail was sent. */
  sentAt: isoDate,
  /** The address the link confirms, or that "this wasn't me" removes. */
  address: z.optional(z.object({ label: z.string(), address: z.string(), usableAt: isoDate })),
  /** The sign-in that "this wasn't me" ends. */
  session: z.optional(z.object({ device: z.string(), ip: z.nullable(z.string()), signedInAt: isoDate })),
  /** Turning the lock off: how long it stays on after the confirmation. */
  lockOffHours: z.optional(z.number()),
});
export type LinkPreview = z.infer<typeof linkPreviewResponse>;

// ------------------------------------------------------------------ the withdrawal lock

/** Turning the lock on takes effect at once; turning it off needs the login password (and an e-mailed confirmation). */
export const withdrawalLockBody = z
  .strictObject({
    enabled: z.boolean(),
    password: z.optional(z.string().check(z.maxLength(200))),
    /** Turning it off with a passkey registered: its assertion for that (POST /api/user/step-up). */
    passkey: z.optional(assertionSchema),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (!v.enabled && !v.password)
        ctx.addIssue({ code: 'custom', message: SECURITY_TEXT.passwordToTurnOff, path: ['password'], input: v });
    }),
  );
export type WithdrawalLockInput = z.input<typeof withdrawalLockBody>;
export const withdrawalLockResponse = z.object({
  message: z.string(),
  ...saidFields,
  withdrawalLock: withdrawalLockSchema,
});

// ------------------------------------------------------------------ sessions

export const sessionSchema = z.object({
  _id: z.string(),
  /** The session this request was made with. */
  current: z.boolean(),
  createdAt: isoDate,
  lastSeenAt: isoDate,
  /** The client address it signed in from. */
  ip: z.nullable(z.string()),
  /** A readable device ("Chrome 140 on Linux"). */
  device: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;
export const sessionsResponse = z.object({ sessions: z.array(sessionSchema), pagination: pageInfo });

// ------------------------------------------------------------------ security activity

export const SECURITY_EVENT_TYPES = [
  'sign_in',
  'sign_in_failed',
  'password_changed',
  'email_changed',
  'address_added',
  'address_confirmed',
  'address_removed',
  'session_revoked',
  'sessions_revoked',
  'two_factor_enabled',
  'two_factor_disabled',
  'withdrawal_lock_on',
  'withdrawal_lock_off_requested',
  'withdrawal_lock_off_confirmed',
  'not_me',
  'withdrawals_frozen',
  'withdrawals_unfrozen',
  'passkey_added',
  'passkey_removed',
  /** The account's last passkey was removed: it is back to passwords alone. */
  'last_passkey_removed',
  /** A password sign-in from a new device on an account that has a passkey (which would not need the password). */
  'password_sign_in_new_device',
  'withdrawal_password_changed',
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];
export const securityEventSchema = z.object({
  type: z.enum(SECURITY_EVENT_TYPES),
  at: isoDate,
  ip: z.nullable(z.string()),
  device: z.nullable(z.string()),
  /** What it was about, in words ("My Ledger 0xAb...", "wrong authenticator code", "by an administrator"). */
  detail: z.nullable(z.string()),
  /** The detail's template and values, said in the reader's language (docs/decisions/0084). */
  detailSaid: storedSaidSchema,
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;
export const securityEventsResponse = z.object({ events: z.array(securityEventSchema), pagination: pageInfo });

// ------------------------------------------------------------------ administrators

export const ADMIN_SESSION_STATUSES = ['active', 'signed_out', 'expired'] as const;
export const adminSessionSchema = z.extend(z.omit(sessionSchema, { current: true }), {
  status: z.enum(ADMIN_SESSION_STATUSES),
});
export const adminSessionsResponse = z.object({ sessions: z.array(adminSessionSchema), pagination: pageInfo });
export const adminWithdrawalAddressSchema = z.extend(z.omit(withdrawalAddressSchema, { status: true }), {
  status: z.enum([...WITHDRAWAL_ADDRESS_STATUSES, 'removed']),
  removedAt: z.nullable(isoDate),
});
export const adminWithdrawalAddressesResponse = z.object({
  addresses: z.array(adminWithdrawalAddressSchema),
  pagination: pageInfo,
  withdrawalLock: withdrawalLockSchema,
});
export const freezeWithdrawalsBody = z.strictObject({
  frozen: z.boolean(),
  note: z.optional(z.string().check(z.trim(), z.maxLength(500, TEXT.noteTooLong))),
});
