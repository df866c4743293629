import { MyReferralNetwork } from '../parts/my-referral-network.tsx';

export default function Tab() {
  return <MyReferralNetwork />;
}
