import type { ReferralTree, ReferralsResponse } from '@harvest/shared/schemas/referrals';
import type { AppContext } from '../../context.ts';
import { toReferralTreeDto, toReferralsDto } from './referrals.dto.ts';
import { REFERRAL_LIST_LIMIT, referralRewardsOf, referralTree } from './referrals.queries.ts';

/** A user's three-level network: the newest `limit` members per level, exact counts. */
export async function network(ctx: AppContext, userId: string, limit = REFERRAL_LIST_LIMIT): Promise<ReferralTree> {
  return toReferralTreeDto(await referralTree(ctx.db, userId, limit));
}

/** The rewards a user's network produced: the newest `limit`, the exact total. */
export async function rewards(
  ctx: AppContext,
  userId: string,
  limit = REFERRAL_LIST_LIMIT,
): Promise<ReferralsResponse> {
  return toReferralsDto(await referralRewardsOf(ctx.db, userId, limit));
}
