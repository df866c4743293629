import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { createChain } from './chain/chain.ts';
import { serverSecrets, type AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { SettableClock, systemClock, type Clock } from './lib/clock.ts';
import { DEFAULT_WEB_DIST } from './lib/paths.ts';
import { spaHtml } from './lib/spa-html.ts';
import { Metrics } from './lib/metrics.ts';
import { randomSecretProblem } from './lib/secret-strength.ts';
import { TokenService } from './lib/tokens.ts';
import { responseSerializerCompiler } from './lib/response-serializer.ts';
import { createCounterStore, RedisCounterStore } from './lib/counter-store.ts';
import { createThrottles } from './lib/throttle.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { clientErrorHandler, limitConnectionsPerAddress } from './plugins/connections.ts';
import { apiNotFound, pageNotFound, registerErrorHandler } from './plugins/error-handler.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { pageHelmet, registerApiSecurity, registerInputGuards } from './plugins/security.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { registerObservability } from './plugins/observability.ts';
import { registerOverload } from './plugins/overload.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { databaseChecks } from './modules/health/health.service.ts';
import { pendingCounts } from './modules/health/health.queries.ts';
import { apiRoutes } from './routes.ts';
import { testClockRoutes } from './modules/test-clock/test-clock.routes.ts';
import { syncRollupTimezone } from './ledger/rollups.queries.ts';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Signs tokens and peppers code hashes (JWT_SECRET, or the one kept in DATA_DIR). */
  secret: string;
  /** The secret `secret` replaced (JWT_SECRET_PREVIOUS): still accepted for tokens and sealed seeds. */
  previousSecret?: string;
  /** The secret that comes next (JWT_SECRET_NEXT): verify-only, for the first step of a rolling rotation. */
  nextSecret?: string;
  /** Default: one without process metrics (server.ts passes one with them). */
  metrics?: Metrics;
  clock?: Clock;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (same level and redaction); tests capture the log with it. */
  logStream?: { write(line: string): void };
}

/**
 * Development logs for people: one coloured line per entry (production and tests: JSON lines). A stream in
 * this process, not a pino transport (a transport runs a worker thread of its own).
 */
async function prettyStream(): Promise<{ write(line: string): void }> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,method,path,route,status,ms',
  });
}

const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'req.body',
  'res.headers["set-cookie"]',
];

/** Builds the whole app (API and the SPA) without listening: tests call app.inject on it. */
export async function buildApp(opts: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const { config } = opts;
  const logStream = opts.logStream ?? (config.NODE_ENV === 'development' ? await prettyStream() : undefined);
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.LOG_LEVEL,
      redact: { paths: REDACT, censor: '[redacted]' },
      ...(logStream ? { stream: logStream } : {}),
    },
    // plugins/observability.ts writes one line per request instead.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    bodyLimit: 64 * 1024,
    // A request (headers and body) must arrive within REQUEST_TIMEOUT_MS, headers within 10 s:
    // a client trickling bytes cannot hold a connection. Node checks the deadlines on an interval.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: 5_000,
    http: {
      headersTimeout: Math.min(10_000, config.REQUEST_TIMEOUT_MS),
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(config.REQUEST_TIMEOUT_MS / 4))),
    },
    clientErrorHandler,
    routerOptions: { maxParamLength: 200 },
    requestIdHeader: false,
  }).withTypeProvider<ZodTypeProvider>();
  limitConnectionsPerAddress(app.server, config.maxConnectionsPerIp, app.log);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(config.checkResponses));
  app.decorateRequest('user', null);
  app.decorateRequest('sessionMfa', false);
  app.decorateRequest('session', null);
  app.decorateRequest('screen', null);

  const clock = opts.clock ?? (config.TEST_CLOCK ? new SettableClock() : systemClock);
  // The analytics rollups are dated in the platform time zone: rebuilt if it changed.
  if (await syncRollupTimezone(opts.database.db, config.PLATFORM_TIMEZONE))
    app.log.info({ timeZone: config.PLATFORM_TIMEZONE }, 'analytics rollups dated in the platform time zone');
  const metrics = opts.metrics ?? new Metrics();
  metrics.attach({ poolStats: () => opts.database.poolStats(), pendingCounts: () => pendingCounts(opts.database.db) });
  registerObservability(app, metrics);
  const counters = await createCounterStore(config.REDIS_URL, opts.database.db, () => clock.now().getTime());
  // A guessable old secret (one production would refuse as JWT_SECRET, kept from before that rule) still opens the
  // authenticator seeds it sealed, but anyone could have signed its tokens: they are not accepted.
  const guessablePrevious = config.isProduction && !!opts.previousSecret && !!randomSecretProblem(opts.previousSecret);
  if (guessablePrevious)
    app.log.warn('JWT_SECRET_PREVIOUS is guessable: tokens it signed are refused (their holders sign in again)');
  const trustedPrevious = guessablePrevious ? undefined : opts.previousSecret;
  const ctx: AppContext = {
    config,
    db: opts.database.db,
    clock,
    tokens: new TokenService(opts.secret, config.JWT_TTL_SECONDS, clock, trustedPrevious, opts.nextSecret),
    mailer:
      opts.mailer ??
      createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, production: config.isProduction, log: app.log }),
    log: app.log,
    secret: opts.secret,
    previousSecret: opts.previousSecret ?? null,
    nextSecret: opts.nextSecret ?? null,
    metrics,
    readiness: [...databaseChecks],
    lifecycle: { shuttingDown: false },
    counters,
    throttles: createThrottles(counters, config.rateLimits),
    chain: config.CHAIN_RPC_URL
      ? createChain({ rpcUrl: config.CHAIN_RPC_URL, chainId: config.CHAIN_ID, usdcContracts: config.USDC_CONTRACTS })
      : null,
  };
  app.addHook('onClose', async () => ctx.counters.close());

  const webDist = config.WEB_DIST ?? DEFAULT_WEB_DIST;
  // The page carries run-time settings the screens show, and the page's own chunks as preload links.
  const pageHtml = spaHtml(webDist, config.SUPPORT_EMAIL);
  const hasWeb = pageHtml !== undefined;
  registerErrorHandler(app);
  // First of the request hooks: a poll shed under overload costs no authentication, SQL or rate-limit count.
  registerOverload(app, config.overloadUtilization);
  registerInputGuards(app);
  await registerRateLimit(
    app,
    config.rateLimits,
    ctx.counters instanceof RedisCounterStore ? ctx.counters.redis : undefined,
  );

  registerIdempotency(app, ctx.db, clock, serverSecrets(ctx), config.IDEMPOTENCY_LEASE_MS);
  // The OpenAPI document is generated from the same Zod schemas the routes validate with.
  await app.register(swagger, {
    openapi: {
      info: { title: 'Harvest Farm API', version: '1.0.0' },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // Two contexts with their own helmet headers and 404s: the API answers JSON, the rest serves pages.
  await app.register(
    async (api) => {
      await registerApiSecurity(api, config.isProduction);
      api.setNotFoundHandler(apiNotFound);
      if (!config.isProduction) api.get('/docs', { schema: { hide: true } }, async () => app.swagger());
      await api.register(apiRoutes(ctx));
      if (config.TEST_CLOCK && clock instanceof SettableClock) await api.register(testClockRoutes(clock));
    },
    { prefix: '/api' },
  );
  await app.register(async (web) => {
    await web.register(helmet, pageHelmet(config.isProduction));
    web.setNotFoundHandler(pageNotFound(pageHtml));
    await web.register(healthRoutes(ctx));
    if (hasWeb)
      await web.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        preCompressed: true,
        // Hashed build assets never change: cached for a year. Anything else (index.html, icons)
        // is revalidated, or a deploy would never reach returning users.
        cacheControl: false,
        setHeaders: (res, filePath) => {
          const hashed = path.relative(webDist, filePath).split(path.sep)[0] === 'assets';
          res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
  });
  return { app, ctx };
}

/** TRUST_PROXY: empty/false (default, X-Forwarded-For ignored), true, a hop count, or trusted addresses. */
function parseTrustProxy(v: string): boolean | string | ((address: string, hop: number) => boolean) {
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_address: string, hop: number) => hop < hops;
  }
  return v;
}
