import { microToUsdc } from '@harvest/shared/money';
import type { ReferralTree, ReferralsResponse } from '@harvest/shared/schemas/referrals';
import type { ReferralMember, ReferralTreeData, RewardRow } from './referrals.queries.ts';

const member = (m: ReferralMember) => ({
  _id: m.id,
  firstName: m.firstName,
  lastName: m.lastName,
  email: m.email,
  createdAt: m.createdAt.toISOString(),
});

export function toReferralTreeDto(t: ReferralTreeData): ReferralTree {
  return {
    totalReferrals: t.totalReferrals,
    level1: t.levels[0].map(member),
    level2: t.levels[1].map(member),
    level3: t.levels[2].map(member),
    level1Count: t.counts[0],
    level2Count: t.counts[1],
    level3Count: t.counts[2],
  };
}

export function toReferralsDto(r: { rewards: RewardRow[]; total: bigint }): ReferralsResponse {
  return {
    referrals: r.rewards.map((x) => ({
      _id: x.id,
      level: x.level,
      amount: microToUsdc(x.amount),
      fromUser: { firstName: x.fromFirstName, lastName: x.fromLastName, email: x.fromEmail },
      investmentAmount: microToUsdc(x.investmentAmount),
      createdAt: x.createdAt.toISOString(),
    })),
    totalRewards: microToUsdc(r.total),
  };
}
