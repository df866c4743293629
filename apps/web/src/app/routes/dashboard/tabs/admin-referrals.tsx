import { ReferralLookup } from '../../../../features/admin-referrals/components/referral-lookup.tsx';
import { ReferralNetwork } from '../../../../features/referrals/components/referral-network.tsx';
import { MyReferralNetwork } from '../parts/my-referral-network.tsx';
import { Email } from '../../../../components/ui/email.tsx';
import { rich, t } from '../../../../lib/i18n.tsx';

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
                {rich(
                  t('Referral Network of {name} (<0>{email}</0>)', {
                    name: `${data.user.firstName} ${data.user.lastName}`,
                    email: data.user.email,
                  }),
                  [() => <Email address={data.user.email} />],
                )}
              </>
            }
          />
        )}
      />
    </MyReferralNetwork>
  );
}
