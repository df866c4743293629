import { microToUsdc, scaledToRate } from '@harvest/shared/money';
import type { Tier } from '@harvest/shared/schemas/investments';
import type { AppContext } from '../../context.ts';
import { listActiveTiers } from './tiers.queries.ts';

/** The tiers investors can buy, in display order (the spec's Investment tier entity). */
export async function activeTiers(ctx: AppContext): Promise<Tier[]> {
  return (await listActiveTiers(ctx.db)).map((t) => ({
    _id: t.id,
    name: t.name,
    amount: microToUsdc(t.amount),
    dailyRate: scaledToRate(t.dailyRateScaled),
  }));
}
