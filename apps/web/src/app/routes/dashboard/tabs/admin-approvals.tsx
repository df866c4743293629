import { ApprovalsPanel } from '../../../../features/admin-approvals/components/approvals-panel.tsx';

export default function Tab() {
  return <ApprovalsPanel />;
}
