/** The Investments tab's withdrawal parts (Cycle Withdrawals, Summary, Withdraw All, history): built by the withdrawals work. */
export function WithdrawalsSection() {
  return null;
}
