import { TiersManager } from '../../../../features/admin-tiers/components/tiers-manager.tsx';

export default function Tab() {
  return <TiersManager />;
}
