import { AnalyticsPanel } from '../../../../features/admin-analytics/components/analytics-panel.tsx';

export default function Tab() {
  return <AnalyticsPanel />;
}
