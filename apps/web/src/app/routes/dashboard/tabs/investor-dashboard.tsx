import { Card } from '../../../../components/ui/card.tsx';

export default function Tab() {
  return <Card title="Dashboard">{null}</Card>;
}
