import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailCodes } from '../../db/schema.ts';

/** Removes signup codes that expired before `before`. */
export async function purgeExpiredEmailCodes(db: Db, before: Date): Promise<void> {
  await db.delete(emailCodes).where(lt(emailCodes.expiresAt, before));
}
