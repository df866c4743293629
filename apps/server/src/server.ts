import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ensureAdmin, resolveSecret } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirInUseError, secureDataDir } from './lib/data-dir.ts';
import { Metrics, startMetricsServer } from './lib/metrics.ts';
import { startBackgroundJobs } from './jobs.ts';
import { depositWatcher } from './modules/deposits/deposit-watcher.ts';
import { seedTiers } from './modules/tiers/tiers.seed.ts';
import { resealTotpSeeds } from './modules/two-factor/two-factor.service.ts';

/** Listens and shuts down gracefully; everything else is built by app.ts. */
async function main() {
  const config = loadConfig();
  const tightened = secureDataDir(config.DATA_DIR, { create: false });
  if (tightened.length > 0)
    console.warn(
      `DATA_DIR ${config.DATA_DIR} was open to other users: made ${tightened.length} files and folders owner-only (0700/0600)`,
    );
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  await database.migrate();
  const metrics = new Metrics({ processMetrics: true });
  const { app, ctx } = await buildApp({
    config,
    database,
    secret: resolveSecret(config),
    previousSecret: config.JWT_SECRET_PREVIOUS,
    nextSecret: config.JWT_SECRET_NEXT,
    metrics,
  });
  const notice = await ensureAdmin(ctx.db, config, ctx.clock.now());
  await seedTiers(ctx.db, ctx.clock.now());
  const resealed = await resealTotpSeeds(ctx);
  if (resealed > 0) app.log.info({ resealed }, 'authenticator seeds re-sealed with the new JWT_SECRET');
  const jobs = startBackgroundJobs(ctx);
  const metricsServer =
    config.METRICS_PORT === undefined
      ? null
      : await startMetricsServer(metrics, config.METRICS_PORT, config.METRICS_HOST);

  // SIGTERM/SIGINT: /readyz turns 503, the listener stops accepting, in-flight requests and running
  // jobs finish, then the database closes and the process exits 0. After SHUTDOWN_TIMEOUT_MS it
  // exits 1 anyway; a second signal exits at once.
  closeWithGrace({ delay: config.SHUTDOWN_TIMEOUT_MS, logger: app.log }, async ({ signal, err }) => {
    ctx.lifecycle.shuttingDown = true;
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info(`${signal ?? 'exit'}: shutting down (finishing in-flight requests and jobs)`);
    await Promise.all([app.close(), jobs.stop()]);
    // The next instance leads the chain watcher at once instead of waiting the lease out.
    await depositWatcher(ctx).release();
    metricsServer?.closeAllConnections();
    await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
    await database.close();
    app.log.info('shut down cleanly');
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  const base = config.publicUrl;
  const lines = [
    '',
    `  Harvest Farm is running: open ${base}`,
    `  Database: ${database.kind === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)'}`,
  ];
  if (notice) {
    if (notice.password)
      lines.push(
        `  Administrator: ${notice.email} / password: ${notice.password}`,
        `  (shown this once; kept readable only by you in ${notice.passwordFile})`,
      );
    else
      lines.push(
        `  Administrator: ${notice.email}${notice.passwordFile ? ` (password in ${notice.passwordFile})` : ''}`,
      );
    if (notice.invitationCode) lines.push(`  Invitation URL: ${base}/signup?code=${notice.invitationCode}`);
  }
  if (!config.SMTP_URL && !config.isProduction)
    lines.push('  E-mail: SMTP_URL unset, signup codes are printed in this log');
  if (metricsServer) lines.push(`  Metrics: http://${config.METRICS_HOST}:${config.METRICS_PORT}/metrics`);
  console.log(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError || err instanceof DataDirInUseError ? err.message : err);
  process.exit(1);
});
