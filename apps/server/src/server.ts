/**
 * The server's entry (`npm start` runs its build, dist/server.js): node-postgres first, on its own
 * (lib/load-pg.ts), then the server itself (main.ts: listen, graceful shutdown).
 */
import { loadPg } from './lib/load-pg.ts';

await loadPg();
await import('./main.ts');
