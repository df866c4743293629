import { AuditLog } from '../../../../features/admin-audit/components/audit-log.tsx';

export default function Tab() {
  return <AuditLog />;
}
