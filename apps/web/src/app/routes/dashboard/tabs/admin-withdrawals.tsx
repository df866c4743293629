import { AdminWithdrawals } from '../../../../features/admin-withdrawals/components/admin-withdrawals.tsx';

export default function Tab() {
  return <AdminWithdrawals />;
}
