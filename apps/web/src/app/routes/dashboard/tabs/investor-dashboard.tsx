import { Button } from '../../../../components/ui/button.tsx';
import { Card } from '../../../../components/ui/card.tsx';
import { AccountSummaryCards } from '../../../../features/dashboard/components/account-summary-cards.tsx';
import { errorText } from '../../../../lib/api-client.ts';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../../lib/query-keys.ts';

export default function Tab() {
  const dashboard = useQuery(dashboardQuery());
  if (dashboard.isPending)
    return (
      <Card title="Dashboard">
        <p role="status" className="text-slate-500">
          Loading your account...
        </p>
      </Card>
    );
  if (dashboard.isError)
    return (
      <Card
        title="Dashboard"
        actions={
          <Button variant="secondary" onClick={() => void dashboard.refetch()}>
            Retry
          </Button>
        }
      >
        <p className="text-slate-600">{errorText(dashboard.error, 'Could not load your account summary.')}</p>
      </Card>
    );
  return (
    <div className="space-y-4">
      <h2 className="text-2xl font-bold text-white">Dashboard</h2>
      <AccountSummaryCards summary={dashboard.data.accountSummary} />
    </div>
  );
}
