import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../../src/lib/csv.ts';
import { createTestApp, makeUser, type TestApp } from '../helpers.ts';

/**
 * CSV injection: a last name `;=cmd|' /C calc'!A0;` exported unquoted makes spreadsheets that
 * split on `;` start a new cell with a formula. Every cell holding a comma, semicolon, tab,
 * quote or line break is quoted; cells starting with = + - @ tab or CR keep the `'`, unless they are a plain
 * number or a phone number (a column of amounts must sum).
 */
const EVIL = ";=cmd|' /C calc'!A0;";

/** The cells of one CSV line as a spreadsheet reads them with `sep` as separator (quotes respected). */
function cells(line: string, sep: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (c === sep && !quoted) {
      out.push(cell);
      cell = '';
    } else {
      cell += c;
    }
  }
  out.push(cell);
  return out;
}

describe('CSV exports cannot smuggle formulas', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('exports the attack name quoted, byte for byte, through the real export', async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const u = await makeUser(t, { firstName: '=1+2', lastName: EVIL });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/export/users.csv?search=${encodeURIComponent(u.user.email)}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body.split('\r\n');
    expect(lines).toHaveLength(3); // header, the user, the empty string after the last CRLF
    expect(lines[1]).toContain(`,${u.user.email},'=1+2,";=cmd|' /C calc'!A0;",`);
    // The phone number as written: a plus and digits run nothing.
    expect(cells(lines[1] ?? '', ',')).toContain('+1 5551234567');
    // Read the way a `;` (or `,`) locale reads it: no cell starts with a formula but a number or a phone number.
    for (const sep of [';', ','])
      for (const cell of cells(lines[1] ?? '', sep))
        expect(cell, `split on ${sep}`).not.toMatch(/^[=@]|^[+-](?![\d ()-]+$)/);
  });

  it('quotes separators of every locale and keeps the formula guard, exact bytes', async () => {
    expect(csvLine([EVIL, 'a\tb', 'a,b', 'say "hi"', 'two\nlines', 'plain', '=SUM(A1)', '-1', '@x', '\tx', null])).toBe(
      `";=cmd|' /C calc'!A0;","a\tb","a,b","say ""hi""","two\nlines",plain,'=SUM(A1),-1,'@x,"'\tx",\r\n`,
    );
    expect(csvLine(['1;2', '+1;2'])).toBe(`"1;2","'+1;2"\r\n`);
  });

  it('writes numbers and phone numbers as they are: nothing in them runs', () => {
    expect(csvLine(['-5000', '-6345.678901', '12', '+44 7700 900123', '+1 (555) 010-9999'])).toBe(
      `-5000,-6345.678901,12,+44 7700 900123,+1 (555) 010-9999\r\n`,
    );
    // Anything more than a number or a phone number is guarded, whatever it starts with.
    expect(csvLine(['-1+2', '-2.5.1', '+44 A1', '-', '+', '-1e5', '--1', '- 1', '+1+cmd|x'])).toBe(
      `'-1+2,'-2.5.1,'+44 A1,'-,'+,'-1e5,'--1,'- 1,'+1+cmd|x\r\n`,
    );
  });
});
