import type { AppContext } from './context.ts';
import type { Config } from './config.ts';
import type { JobResult } from './lib/metrics.ts';

/** A background job a module registers in jobs.ts (its own file, so modules never import jobs.ts back). */
export interface Job {
  name: string;
  /** How often it runs; settings may decide it. */
  intervalMs: (config: Config) => number;
  run: (ctx: AppContext) => Promise<JobResult>;
  /** Run once at start too, not only after the first interval (figures an administrator reads). */
  atStart?: boolean;
}
