import { queryOptions } from '@tanstack/react-query';
import { statementResponse, type StatementFormat } from '@harvest/shared/schemas/statements';
import { statementTexts } from '@harvest/shared/statement-texts';
import { api } from '../../../lib/api-client.ts';
import { fetchFile, save } from '../../../lib/download.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface Period {
  from: string;
  to: string;
}

const query = (p: Period, format?: StatementFormat) => `from=${p.from}&to=${p.to}${format ? `&format=${format}` : ''}`;

/**
 * A statement on screen; `path` is the investor's own (/user/statement) or a user's for the administrator. Without
 * a period, the current month of the platform's calendar on the server's clock.
 */
export const statementQuery = (path: string, p: Period | null) =>
  queryOptions({
    queryKey: queryKeys.statement(path, p?.from ?? '', p?.to ?? ''),
    queryFn: () => api(p ? `${path}?${query(p)}` : path, statementResponse),
  });

const ACCEPT = { csv: 'text/csv', pdf: 'application/pdf' } as const;

/** Downloads the statement as a file (the server names it) and says under which name it was saved. */
export async function downloadStatement(path: string, p: Period, format: 'csv' | 'pdf'): Promise<string> {
  const file = await fetchFile(
    `${path}?${query(p, format)}`,
    `${statementTexts().fileName(p.from, p.to)}.${format}`,
    ACCEPT[format],
  );
  save(file);
  return file.name;
}
