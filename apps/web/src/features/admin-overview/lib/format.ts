export const usdc = (v: number, decimals = 2) =>
  `${v.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: Math.max(decimals, 6) })} USDC`;
export const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
export const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();
