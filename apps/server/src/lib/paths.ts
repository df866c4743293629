import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * apps/server, found from this file upwards: the same code runs from src/ (tsx, tests) and bundled
 * into dist/ (npm start), so files the server reads at run time are located from the package, not
 * from the importing file.
 */
function serverDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('apps/server/package.json not found above the running file');
    dir = up;
  }
  return dir;
}

export const SERVER_DIR = serverDir();
/** Committed migrations, applied at start (src/db/migrations). */
export const MIGRATIONS_DIR = path.join(SERVER_DIR, 'src/db/migrations');
/** Every SQL function, view and trigger as it is now, applied after the migrations (db/functions.ts). */
export const FUNCTIONS_FILE = path.join(SERVER_DIR, 'src/db/functions.sql');
/** The tier seed an operator may edit before the first start. */
export const TIERS_SEED_FILE = path.join(SERVER_DIR, 'src/modules/tiers/tiers.seed.json');
/** The fonts statements are written in, with their licences (assets/fonts/README.md). */
export const FONTS_DIR = path.join(SERVER_DIR, 'assets/fonts');
/** The web app's production build (npm run build). */
export const DEFAULT_WEB_DIST = path.resolve(SERVER_DIR, '../web/dist');
