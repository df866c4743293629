import { StatementPanel } from '../../../../features/statements/components/statement-panel.tsx';

export default function Tab() {
  return <StatementPanel />;
}
