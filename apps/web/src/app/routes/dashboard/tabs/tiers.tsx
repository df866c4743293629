import { useDashboard } from '../../../../features/dashboard/api/get-dashboard.ts';
import { TierList } from '../../../../features/tiers/components/tier-list.tsx';

export default function Tab() {
  // The balance shown in the confirmation comes from the dashboard's account summary.
  const dashboard = useDashboard();
  return <TierList balance={dashboard.data?.accountSummary.balance} />;
}
