/**
 * Staff roles and what each may do (docs/SECURITY.md has the table). Every admin route names one ability;
 * the server refuses a role without it (403 `forbidden_role`) and the back office hides what it cannot use.
 */
export const ROLES = ['owner', 'finance', 'support', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

export const ABILITIES = {
  /** Read every back-office screen, export CSV files; also the staff member's own account (e-mail). */
  read: ['owner', 'finance', 'support', 'auditor'],
  /** Deposits, withdrawals, payout batches, balance updates, tiers: everything that moves money. */
  money: ['owner', 'finance'],
  /** Blocks, sessions sign-out, withdrawal freezes. */
  support: ['owner', 'support'],
  /** Approve or reject a four-eyes proposal (the proposal's own kind then needs its ability too). */
  approve: ['owner', 'finance', 'support'],
  /** Invite staff, change or remove roles. */
  staff: ['owner'],
} as const satisfies Record<string, readonly Role[]>;
export type Ability = keyof typeof ABILITIES;

export const isRole = (r: unknown): r is Role => typeof r === 'string' && (ROLES as readonly string[]).includes(r);

export const can = (role: string | null | undefined, ability: Ability): boolean =>
  isRole(role) && (ABILITIES[ability] as readonly Role[]).includes(role);
