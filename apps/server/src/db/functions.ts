import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FUNCTIONS_FILE } from '../lib/paths.ts';

/** What `applyFunctions` needs of a connection: a script of several statements, and one text value. */
export interface ScriptConnection {
  /** Runs the statements as one simple query (one implicit transaction: all of them or none). */
  script(text: string): Promise<void>;
  /** The first column of the first row, or undefined. */
  value(text: string): Promise<string | undefined>;
}

/**
 * Applies db/functions.sql (every SQL function, view and trigger as it is now) after the migrations when it
 * changed since it was last applied (its SHA-256 is kept in settings), in one transaction. Callers hold the
 * migration lock. Returns whether it ran.
 */
export async function applyFunctions(db: ScriptConnection): Promise<boolean> {
  const text = readFileSync(FUNCTIONS_FILE, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex');
  if ((await db.value(`SELECT value FROM settings WHERE key = 'sql_functions'`)) === hash) return false;
  await db.script(`${text}
INSERT INTO settings (key, value) VALUES ('sql_functions', '${hash}') ON CONFLICT (key) DO UPDATE SET value = excluded.value;`);
  return true;
}
