import { ReferralLookup } from '../../../../features/admin-referrals/components/referral-lookup.tsx';
import { ReferralNetwork } from '../../../../features/referrals/components/referral-network.tsx';
import { MyReferralNetwork } from '../parts/my-referral-network.tsx';
import { Email } from '../../../../components/ui/email.tsx';

/** Admin Referrals: the admin's own network as investors see it, plus any user's network. */
export default function Tab() {
  return (
    <MyReferralNetwork>
      <ReferralLookup
        renderTree={(data, onRefresh, refreshing) => (
          <ReferralNetwork
            tree={data.tree}
            onRefresh={onRefresh}
            refreshing={refreshing}
            owner={`${data.user.firstName} ${data.user.lastName}`}
            title={
              <>
                Referral Network of {data.user.firstName} {data.user.lastName} (<Email address={data.user.email} />)
              </>
            }
          />
        )}
      />
    </MyReferralNetwork>
  );
}
