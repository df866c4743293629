import { AdminOverview } from '../../../../features/admin-overview/components/admin-overview.tsx';
import { SolvencyPanel } from '../../../../features/admin-solvency/components/solvency-panel.tsx';

export default function Tab() {
  return (
    <div className="space-y-5">
      <SolvencyPanel />
      <AdminOverview />
    </div>
  );
}
