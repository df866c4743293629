import { useCallback, useState, type ReactNode } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { Card } from '../../../../components/ui/card.tsx';
import { InviteDialog } from '../../../../features/invitation/components/invite-dialog.tsx';
import { ReferralNetwork } from '../../../../features/referrals/components/referral-network.tsx';
import { ReferralRewards } from '../../../../features/referrals/components/referral-rewards.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { useQuery } from '@tanstack/react-query';
import { referralRewardsQuery, referralTreeQuery } from '../../../../features/referrals/api/referrals.ts';
import { t } from '../../../../lib/i18n.tsx';

/** The signed-in user's own Referral Network, rewards and the invitation dialog (investor and admin tabs). */
export function MyReferralNetwork({ children }: { children?: ReactNode }) {
  const tree = useQuery(referralTreeQuery());
  const rewards = useQuery(referralRewardsQuery());
  const [inviteOpen, setInviteOpen] = useState(false);
  const closeInvite = useCallback(() => setInviteOpen(false), []);
  const refresh = () => {
    void tree.refetch();
    void rewards.refetch();
  };

  return (
    <div className="space-y-6">
      <QueryState
        query={tree}
        what={t('your referral network')}
        frame={(state) => <Card title={t('Referral Network')}>{state}</Card>}
      >
        {(data) => (
          <ReferralNetwork
            tree={data}
            onRefresh={refresh}
            refreshing={tree.isFetching || rewards.isFetching}
            emptyAction={<Button onClick={() => setInviteOpen(true)}>{t('Share your invitation code')}</Button>}
          />
        )}
      </QueryState>
      {rewards.data && <ReferralRewards data={rewards.data} />}
      {children}
      <InviteDialog open={inviteOpen} onClose={closeInvite} />
    </div>
  );
}
