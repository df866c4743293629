import type { FastifyBaseLogger } from 'fastify';
import type { Chain } from './chain/chain.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { CounterStore } from './lib/counter-store.ts';
import type { Metrics } from './lib/metrics.ts';
import type { Throttles } from './lib/throttle.ts';
import type { TokenService } from './lib/tokens.ts';
import type { Mailer } from './mail/mailer.ts';

/**
 * One condition of GET /readyz: null when it holds, else what is wrong (a short text). Modules push
 * theirs onto `ctx.readiness` (the database checks are there from the start).
 */
export interface ReadinessCheck {
  name: string;
  run(ctx: AppContext): Promise<string | null>;
}

/** What services need from the outside world; built once in app.ts and passed down. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  tokens: TokenService;
  log: FastifyBaseLogger;
  /** Throttle counters shared by all instances: in the database, or in Redis (REDIS_URL). */
  counters: CounterStore;
  /** Wrong-secret throttles (login password, withdrawal password, authenticator codes). */
  throttles: Throttles;
  /** Pepper for hashing short-lived secrets such as e-mail codes. */
  secret: string;
  /** The secret JWT_SECRET replaced (JWT_SECRET_PREVIOUS), while a rotation lasts: tokens and sealed seeds still open with it. */
  previousSecret: string | null;
  /** The secret that comes next (JWT_SECRET_NEXT), during the first step of a rotation: verify-only. */
  nextSecret: string | null;
  /** Prometheus metrics (served on METRICS_PORT when set). */
  metrics: Metrics;
  /** Conditions of GET /readyz; modules add theirs (e.g. the deposit watcher's lag). */
  readiness: ReadinessCheck[];
  /** Set when shutdown starts: /readyz answers 503 so balancers stop sending traffic. */
  lifecycle: { shuttingDown: boolean };
  /** The chain's RPC node (CHAIN_RPC_URL): one client for the process; null for demo deposits. */
  chain: Chain | null;
}

/**
 * The server secrets in the order they are tried: the current one (which alone signs and seals), the
 * next one (JWT_SECRET_NEXT), the previous one (JWT_SECRET_PREVIOUS).
 */
export function serverSecrets(ctx: Pick<AppContext, 'secret' | 'nextSecret' | 'previousSecret'>): string[] {
  return [ctx.secret, ctx.nextSecret, ctx.previousSecret].filter((s): s is string => Boolean(s));
}
