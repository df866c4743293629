import { createHash } from 'node:crypto';
import net from 'node:net';
import { MSG } from '@harvest/shared/messages';
import type { CounterStore } from './counter-store.ts';
import { tooMany } from './errors.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface ThrottleLimits {
  /** Tries per (account, client address): a hard stop for that address only. */
  perAddress: { max: number; windowMs: number };
  /**
   * Tries per account from addresses it never succeeded from, all of them together: slows a
   * guesser spread over many addresses. Addresses that succeeded before are not stopped by it,
   * so an attacker who uses it up cannot lock the owner out of the places the owner uses.
   */
  perAccount: { max: number; windowMs: number };
  /** How long an address that got the secret right stays known for the account. */
  knownForMs: number;
}

/** The limits of each secret (docs/decisions/0020-failure-throttles.md). */
export const THROTTLE_LIMITS = {
  /** The login password, at sign-in and when it confirms a change (2FA, e-mail, password). */
  password: {
    perAddress: { max: 10, windowMs: 15 * MINUTE },
    perAccount: { max: 100, windowMs: DAY },
    knownForMs: 30 * DAY,
  },
  withdrawalPassword: {
    perAddress: { max: 5, windowMs: 15 * MINUTE },
    perAccount: { max: 20, windowMs: DAY },
    knownForMs: 30 * DAY,
  },
  /** Authenticator and recovery codes at sign-in and when turning two-factor off. */
  totp: { perAddress: { max: 5, windowMs: 15 * MINUTE }, perAccount: { max: 30, windowMs: DAY }, knownForMs: 30 * DAY },
} satisfies Record<string, ThrottleLimits>;

/** One counted try: call `succeeded()` when the secret was right; a wrong one stays counted. */
export interface ThrottleTry {
  succeeded(): Promise<void>;
}

const NO_OP: ThrottleTry = { succeeded: async () => undefined };

/**
 * The client address a throttle counts: IPv4 as it is (also when IPv4-mapped), IPv6 by its /64
 * (one subscriber usually holds a whole /64, so single IPv6 addresses are free to rotate).
 */
export function addressKey(ip: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4?.[1]) return v4[1];
  if (!net.isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Wrong secrets (passwords, codes) counted per account and client address. Every try is
 * counted first, in one atomic step of the shared store, and only a try whose count is within
 * the limits goes on to have its secret checked: however many arrive at once, at most the
 * limit of secrets is evaluated per window. A success gives its own count back.
 */
export class FailureThrottle {
  constructor(
    private readonly name: string,
    private readonly limits: ThrottleLimits,
    private readonly store: CounterStore,
    private readonly enabled: boolean,
  ) {}

  private key(kind: string, ...parts: string[]): string {
    // Hashed: the store never holds an e-mail or client address.
    return `${this.name}:${kind}:${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 32)}`;
  }

  /** Counts this try; 429 with Retry-After when the account is over a limit for this address. */
  async begin(account: string, ip: string): Promise<ThrottleTry> {
    if (!this.enabled) return NO_OP;
    const address = addressKey(ip);
    const perAddress = this.key('address', account, address);
    const perAccount = this.key('account', account);
    const known = this.key('known', account, address);
    const { limits, store } = this;

    const a = await store.hit(perAddress, limits.perAddress.windowMs);
    if (a.count > limits.perAddress.max) throw tooMany(MSG.tooManyRequests, a.ttlMs / 1000);
    const u = await store.hit(perAccount, limits.perAccount.windowMs);
    if (u.count > limits.perAccount.max && !(await store.peek(known)))
      throw tooMany(MSG.tooManyRequests, u.ttlMs / 1000);
    return {
      async succeeded() {
        await store.reset(perAddress);
        await store.release(perAccount);
        await store.mark(known, limits.knownForMs);
      },
    };
  }
}

/**
 * Login-password changes per account: at most 5 an hour, whatever their outcome once the
 * current password is confirmed. Always on (RATE_LIMITS=off does not lift it): a person changes a
 * password a few times a year, and its answers say whether a guess is the withdrawal password.
 */
export const PASSWORD_CHANGE_LIMIT = { max: 5, windowMs: 60 * MINUTE };

/** Counts one password change of `userId`; 429 with Retry-After once over the limit. */
export async function countPasswordChange(store: CounterStore, userId: string): Promise<void> {
  const w = await store.hit(`password-change:${userId}`, PASSWORD_CHANGE_LIMIT.windowMs);
  if (w.count > PASSWORD_CHANGE_LIMIT.max) throw tooMany(MSG.passwordChangesLimit(w.ttlMs), w.ttlMs / 1000);
}

export interface Throttles {
  password: FailureThrottle;
  withdrawalPassword: FailureThrottle;
  totp: FailureThrottle;
}

export function createThrottles(store: CounterStore, enabled: boolean): Throttles {
  return {
    password: new FailureThrottle('password', THROTTLE_LIMITS.password, store, enabled),
    withdrawalPassword: new FailureThrottle('withdrawal-password', THROTTLE_LIMITS.withdrawalPassword, store, enabled),
    totp: new FailureThrottle('totp', THROTTLE_LIMITS.totp, store, enabled),
  };
}
