import { buildApp } from './app.ts';
import { ensureAdmin, resolveSecret } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { secureDataDir } from './lib/data-dir.ts';
import { startBackgroundJobs } from './jobs.ts';
import { seedTiers } from './modules/tiers/tiers.seed.ts';

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
  const { app, ctx } = await buildApp({ config, database, secret: resolveSecret(config) });
  const notice = await ensureAdmin(ctx.db, config);
  await seedTiers(ctx.db);
  const jobs = startBackgroundJobs(ctx);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await jobs.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const base = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
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
  console.log(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
