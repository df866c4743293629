import { PorAdminPanel } from '../../../../features/admin-por/components/por-admin-panel.tsx';

export default function Tab() {
  return <PorAdminPanel />;
}
