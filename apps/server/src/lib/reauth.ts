import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../context.ts';
import type { AuthUser } from '../plugins/auth.ts';
import { unauthorized } from './errors.ts';
import { verifyPassword } from './passwords.ts';

/**
 * The current login password, asked again before a change a stolen session must not make
 * (second factor on or off, e-mail, password). Wrong ones count in the sign-in throttle of the
 * account, so a session cannot be used to guess the password faster than the login form.
 */
export async function confirmPassword(ctx: AppContext, user: AuthUser, password: string, ip: string): Promise<void> {
  const attempt = await ctx.throttles.password.begin(user.email, ip);
  if (!(await verifyPassword(user.passwordHash, password)))
    throw unauthorized(MSG.currentPasswordWrong, 'wrong_password');
  await attempt.succeeded();
}
