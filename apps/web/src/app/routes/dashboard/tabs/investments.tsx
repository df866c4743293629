import { Card } from '../../../../components/ui/card.tsx';

export default function Tab() {
  return <Card title="Investment Cycles">{null}</Card>;
}
