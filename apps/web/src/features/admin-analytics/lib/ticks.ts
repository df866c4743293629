/**
 * Round ticks for an axis from 0 to at least `max`: steps of 1, 2 or 5 x 10^n, about four of them
 * (whole steps only when `integer`). E.g. max 260 -> 0, 100, 200, 300; max 4 -> 0, 1, 2, 3, 4.
 */
export function roundTicks(max: number, integer = false): number[] {
  const target = Math.max(max, integer ? 1 : 0) / 4;
  if (!(target > 0)) return [0, 1];
  const power = 10 ** Math.floor(Math.log10(target));
  let step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= target) ?? 10 * power;
  if (integer) step = Math.max(1, Math.round(step));
  const ticks: number[] = [];
  // Whole multiples of the step (no 0.30000000000000004 from adding decimals).
  for (let i = 0; i * step < max + step; i++) ticks.push(Number((i * step).toPrecision(12)));
  if (ticks.length < 2) ticks.push(step);
  return ticks;
}
