import type { AppContext } from '../context.ts';

/** The relying party passkeys are made for: the app's public URL (PUBLIC_URL) names both its id and its origin. */
export function relyingParty(ctx: AppContext): { id: string; origin: string; name: string } {
  const url = new URL(ctx.config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Harvest Farm' };
}

/** How long a WebAuthn challenge or a wallet-proof message stays usable. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
