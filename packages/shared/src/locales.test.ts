import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { englishCatalogue } from '../../../scripts/i18n/extract.ts';
import { english as englishOf, LOCALES } from './i18n.ts';
import { MSG } from './messages.ts';
import { TEXT, tooLongText } from './texts.ts';

/*
 * The languages stay complete (docs/decisions/0075): en.json is every English text the code says (the
 * extractor's list), every other language has exactly its keys, and each translation is a message Lingui compiles
 * with the same placeholders and marked parts as its English.
 */
const dir = path.join(import.meta.dirname, 'locales');
const catalogue = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(dir, `${locale}.json`), 'utf8')) as Record<string, string>;
const english = catalogue('en');

/** The {placeholders} a message uses (plural and select arguments included) and its <n> marked parts. */
function slots(message: string): string[] {
  const names = new Set<string>();
  // A compiled message is a list of texts and arguments; an argument is [name, format?, { case: message }].
  const walk = (parts: unknown): void => {
    if (!Array.isArray(parts)) return;
    for (const part of parts as unknown[]) {
      if (!Array.isArray(part)) continue;
      names.add(`{${String(part[0])}}`);
      if (part[2] && typeof part[2] === 'object') Object.values(part[2] as object).forEach(walk);
    }
  };
  walk(compileMessage(message));
  for (const m of message.matchAll(/<(\d+)>/g)) names.add(`<${m[1]}>`);
  return [...names].sort();
}

describe('the locale catalogues', () => {
  // It parses every source file of the web, server and shared code: seconds, more on a loaded machine.
  it('en.json is every text the code says: run npm run i18n:extract after adding one', { timeout: 60_000 }, () => {
    expect(english).toEqual(englishCatalogue());
  });

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale} has every key of en.json, and no other`, () => {
      const keys = Object.keys(catalogue(locale));
      expect(Object.keys(english).filter((k) => !keys.includes(k))).toEqual([]);
      expect(keys.filter((k) => !(k in english))).toEqual([]);
    });

    it(`${locale}: every translation compiles with the placeholders and marked parts of its English`, () => {
      const wrong = Object.entries(catalogue(locale))
        .filter(([en, said]) => !said.trim() || JSON.stringify(slots(en)) !== JSON.stringify(slots(said)))
        .map(([en, said]) => `${en} -> ${said}`);
      expect(wrong).toEqual([]);
    });
  }

  it('finds a missing key: a catalogue without one text fails the check above', () => {
    const [first] = Object.keys(english);
    const less = { ...catalogue('ru') };
    if (first) delete less[first];
    expect(Object.keys(english).filter((k) => !(k in less))).toEqual([first]);
  });
});

describe('texts the server makes with values in them', () => {
  // Each is said by its template (a catalogue key) with its values as data: the template names every value it
  // shows, and the values fill it.
  const at = new Date('2026-11-28T10:00:00.000Z');
  const made = [
    MSG.passwordChangesLimit(3_720_000),
    MSG.payoutSeveralMatches(2),
    MSG.batchCreated(1),
    MSG.batchCreated(3),
    MSG.solvencyRefreshTooSoon(1),
    MSG.solvencyRefreshTooSoon(5),
    MSG.depositNotCorrectable('below the minimum'),
    MSG.depositNotCorrectable(null),
    MSG.balanceChanged(1_500_000n),
    MSG.depositNotFoundOnChain(137),
    MSG.depositWrongToken(['0xabc']),
    MSG.depositWrongToken([]),
    MSG.depositWrongRecipient(['0x1'], '0x2'),
    MSG.depositWrongSender(['0x1'], '0x2'),
    MSG.depositWrongAmount([1_000_000n], 2_000_000n),
    MSG.depositNotYourAddress(['0x1'], '0x2'),
    MSG.depositNotOnChainYet(137),
    MSG.cooldown(3_720_000),
    MSG.cycleNotFinished(60_000),
    MSG.cycleCompleted(1_250_000n),
    MSG.withdrawalRequested(1, 10_000_000n, 1_500_000n, 8_500_000n),
    MSG.withdrawalRequested(2, 10_000_000n, 1_500_000n, 8_500_000n),
    MSG.addressAdded(24),
    MSG.addressBookFull(20),
    MSG.addressNotInBook(24),
    MSG.addressUnconfirmed(at, 'Nov 28, 2026, 10:00 (UTC)'),
    MSG.addressCoolingDown(at, 'Nov 28, 2026, 10:00 (UTC)', 7_500_000),
    MSG.withdrawalsFrozen('support@example.com'),
    MSG.lockAlreadyTurningOff(at, 'Nov 28, 2026, 10:00 (UTC)'),
    MSG.lockOffRequested(24),
    MSG.lockOffConfirmed(at, 'Nov 28, 2026, 10:00 (UTC)'),
    MSG.sessionsRevoked(1),
    MSG.sessionsRevoked(3),
    MSG.adminSessionsRevoked(1),
    MSG.adminSessionsRevoked(3),
    TEXT.batchTooLarge(50),
    tooLongText('First name', 100),
  ];
  const names = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  for (const said of made)
    it(`"${said.text.slice(0, 60)}..." is said by a catalogue template that names its values`, () => {
      expect(english[said.template]).toBe(said.template);
      expect(names(said.template).filter((n) => n === undefined || !(n in said.params))).toEqual([]);
    });

  it('the English of a text without a value-dependent format is its template filled in', () => {
    const full = MSG.addressBookFull(20);
    expect(full.text).toBe(englishOf(full.template, full.params));
    expect(tooLongText('First name', 100).text).toBe('First name must be at most 100 characters');
    expect(MSG.cooldown(3_720_000).text).toBe(
      'The next cycle becomes available 48 hours after your approved withdrawal: 1h 2m left.',
    );
  });
});
