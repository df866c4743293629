import { AdminDepositsPanel } from '../../../../features/admin-deposits/components/admin-deposits-panel.tsx';

export default function Tab() {
  return <AdminDepositsPanel />;
}
