import { assertionSchema } from './passkeys.ts';
import * as z from 'zod/mini';
import { ROLES, type Ability } from '../staff.ts';
import { TEXT, tooLongText } from '../texts.ts';
import { MAX_LENGTH, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { msg } from '../i18n.ts';
import { atMost, isoDate, saidFields } from './common.ts';
import { newEmail, personName, userRefSchema } from './user.ts';

/** What a second staff member approves with FOUR_EYES=on (docs/SECURITY.md). */
export const PROPOSAL_KINDS = [
  'balance_update',
  'deposit_approve',
  'withdrawal_approve',
  'tier_update',
  'tier_create',
  'withdrawals_unfreeze',
  'staff_role',
  'staff_invite',
  'withdrawal_policy',
] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

/** Who may propose and approve each kind (the proposer and the approver both need it). */
export const PROPOSAL_ABILITY = {
  balance_update: 'money',
  deposit_approve: 'money',
  withdrawal_approve: 'money',
  tier_update: 'money',
  tier_create: 'money',
  withdrawals_unfreeze: 'support',
  staff_role: 'staff',
  staff_invite: 'staff',
  withdrawal_policy: 'money',
} as const satisfies Record<ProposalKind, Ability>;

/**
 * One thing a proposal changes, as the proposer saw it: `balance` and `amount` in USDC (decimal text), `dailyRate`
 * in %, a tier's `name`, `active` 'true'/'false' and `sortOrder`, `withdrawalsFrozen` 'true'/'false', `role` a role
 * or null (no longer staff), a withdrawal limit in USDC or null (no limit).
 */
export const proposalChange = z.object({
  field: z.enum([
    'balance',
    'name',
    'amount',
    'dailyRate',
    'active',
    'sortOrder',
    'withdrawalsFrozen',
    'role',
    'perInvestorDay',
    'perInvestorMonth',
    'platformDay',
  ]),
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
});
export type ProposalChange = z.infer<typeof proposalChange>;

export const proposalSchema = z.object({
  id: z.string(),
  kind: z.enum(PROPOSAL_KINDS),
  /** The investor or staff member it is about. */
  user: z.nullable(userRefSchema),
  changes: z.array(proposalChange),
  /** The money it moves (USDC, signed), if any. */
  difference: z.nullable(z.string()),
  /** A tier's name, a payout hash, a note. */
  detail: z.nullable(z.string()),
  proposedBy: userRefSchema,
  proposedAt: isoDate,
  expiresAt: isoDate,
});
export type Proposal = z.infer<typeof proposalSchema>;

export const proposalsResponse = z.object({
  proposals: z.array(proposalSchema),
  counts: z.object({ open: z.number(), byKind: z.record(z.string(), z.number()) }),
});
export type ProposalsResponse = z.infer<typeof proposalsResponse>;

/** The proposing call's answer (202): the change waits for a second staff member. */
export const proposalSentResponse = z.object({ message: z.string(), proposalId: z.string(), ...saidFields });

/** With a passkey on the approver's account, its assertion for exactly this proposal (`POST /api/user/step-up`). */
export const approveProposalBody = z.nullish(z.strictObject({ passkey: z.optional(assertionSchema) }));

export const rejectProposalBody = z.nullish(
  z.strictObject({ reason: z.optional(z.string().check(z.trim(), z.maxLength(500))) }),
);

// ------------------------------------------------------------------ staff

export const staffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  twoFactorEnabled: z.boolean(),
  createdAt: isoDate,
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffResponse = z.object({ staff: z.array(staffMemberSchema) });

/** A new role, or null to remove the member from the staff (the account is closed). */
export const staffRoleBody = z.strictObject({ role: z.nullable(z.enum(ROLES)) });

/** An owner's invitation: the new member's e-mail, name and role. */
export const staffInviteBody = z.strictObject({
  email: newEmail(TEXT.invalidEmail),
  firstName: personName(TEXT.firstNameRequired, msg('First name')),
  lastName: personName(TEXT.lastNameRequired, msg('Last name')),
  role: z.enum(ROLES),
});
export type StaffInviteInput = z.input<typeof staffInviteBody>;

/** The invited member's first password, posted from the e-mailed link's page with the link's secret. */
export const staffJoinBody = z
  .strictObject({
    token: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    password: z.string().check(atMost<string>(MAX_LENGTH.password, tooLongText(msg('Password'), MAX_LENGTH.password))),
    confirmPassword: z.string().check(z.maxLength(MAX_LENGTH.password)),
  })
  .check(
    z.superRefine((v, ctx) => {
      const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path], input: v });
      if (v.password.length < MIN_PASSWORD_LENGTH) return fail(TEXT.passwordTooShort, 'password');
      if (v.confirmPassword !== v.password) fail(TEXT.passwordsMismatch, 'confirmPassword');
    }),
  );
export type StaffJoinInput = z.input<typeof staffJoinBody>;
