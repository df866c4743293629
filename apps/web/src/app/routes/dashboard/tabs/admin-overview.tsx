import { AdminOverview } from '../../../../features/admin-overview/components/admin-overview.tsx';

export default function Tab() {
  return <AdminOverview />;
}
