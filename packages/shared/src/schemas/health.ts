import * as z from 'zod/mini';

/**
 * One readiness check that failed: its name (e.g. `database`, `migrations`, `deposit_watcher`) and, when
 * the check itself says why in its own words, that reason; a check that threw is named only.
 */
export const healthFailure = z.object({ check: z.string(), detail: z.optional(z.string()) });

/** GET /healthz and GET /readyz: `{ "status": "ok" }` (200), or what failed (503). */
export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  failed: z.optional(z.array(healthFailure)),
});
export type HealthResponse = z.infer<typeof healthResponse>;
export type HealthFailure = z.infer<typeof healthFailure>;
