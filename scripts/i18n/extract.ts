/**
 * `npm run i18n:extract`: writes packages/shared/src/locales/en.json, the English catalogue every other language
 * translates (docs/decisions/0075). Its keys are every `t('...')` text of the web, the server and the shared code,
 * every text with values (`said('...')`, said.ts) and every text the server and the shared schemas say (TEXT, MSG,
 * SECURITY_TEXT, the codes' sentences).
 * packages/shared/src/locales.test.ts fails when en.json is not what this makes, or a language lacks a key.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_TEXT } from '../../packages/shared/src/error-texts.ts';
import { MSG } from '../../packages/shared/src/messages.ts';
import { SECURITY_TEXT } from '../../packages/shared/src/security-texts.ts';
import { WALLET_TEXT } from '../../packages/shared/src/wallet-texts.ts';
import { findMessages } from './messages.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCES = ['apps/web/src', 'apps/server/src', 'packages/shared/src'];
export const ENGLISH_FILE = path.join(root, 'packages/shared/src/locales/en.json');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name))
    .map((d) => path.join(d.parentPath, d.name))
    .filter((f) => !f.includes(`${path.sep}test${path.sep}`));
}

/** Every English text a person can be shown, sorted. */
export function englishTexts(): string[] {
  const texts = new Set<string>();
  for (const dir of SOURCES)
    for (const file of sourceFiles(path.join(root, dir)))
      for (const m of findMessages(readFileSync(file, 'utf8'), file)) texts.add(m.text);
  for (const v of [
    ...Object.values(MSG),
    ...Object.values(WALLET_TEXT),
    ...Object.values(SECURITY_TEXT),
    ...Object.values(CODE_TEXT),
  ])
    if (typeof v === 'string') texts.add(v);
  return [...texts].sort();
}

/** The English catalogue as en.json holds it: each text is its own translation. */
export const englishCatalogue = (): Record<string, string> =>
  Object.fromEntries(englishTexts().map((text) => [text, text]));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const catalogue = englishCatalogue();
  writeFileSync(ENGLISH_FILE, `${JSON.stringify(catalogue, null, 2)}\n`);
  console.log(`${ENGLISH_FILE}: ${Object.keys(catalogue).length} texts`);
}
