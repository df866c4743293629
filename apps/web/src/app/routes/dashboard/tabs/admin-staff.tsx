import { StaffPanel } from '../../../../features/admin-staff/components/staff-panel.tsx';

export default function Tab() {
  return <StaffPanel />;
}
