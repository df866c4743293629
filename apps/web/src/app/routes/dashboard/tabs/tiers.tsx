import { TierList } from '../../../../features/tiers/components/tier-list.tsx';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../../lib/query-keys.ts';

export default function Tab() {
  // The balance shown in the confirmation comes from the dashboard's account summary.
  const dashboard = useQuery(dashboardQuery());
  return <TierList balance={dashboard.data?.accountSummary.balance} />;
}
