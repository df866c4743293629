/**
 * The languages the platform speaks (docs/decisions/0075). English is the source: its texts are the
 * spec's words, written where they are used; every other language is one catalogue, locales/<locale>.json,
 * keyed by the English text. Small on purpose: the web's first load carries this module.
 */
export const LOCALES = ['en', 'es', 'pt-BR', 'ru', 'tr', 'ar', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language in its own words: what the language menu lists, whatever the language on screen. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ru: 'Русский',
  tr: 'Türkçe',
  ar: 'العربية',
  'zh-CN': '简体中文',
};

/**
 * The tag Intl formats a locale's numbers and dates with: Arabic keeps Western digits (amounts, hashes and
 * addresses read the same as on the blockchain and in the wallet; docs/decisions/0075).
 */
export const intlLocale = (locale: string): string =>
  locale === 'ar' ? 'ar-u-nu-latn' : locale === 'en' ? 'en-US' : locale;

export const isLocale = (v: unknown): v is Locale => (LOCALES as readonly unknown[]).includes(v);

/** Arabic is written right to left: the whole page is laid out that way (dir="rtl"). */
export const directionOf = (locale: Locale): 'ltr' | 'rtl' => (locale === 'ar' ? 'rtl' : 'ltr');

/**
 * The best of our locales for a list of language tags in order of preference (navigator.languages, or an
 * Accept-Language header's tags): an exact match, else the same language (pt-PT reads pt-BR, zh-TW reads
 * Simplified Chinese rather than English), else English.
 */
export function matchLocale(tags: readonly string[]): Locale {
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase();
    const exact = LOCALES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const language = tag.split(/[-_]/)[0];
    const same = LOCALES.find((l) => l.toLowerCase().split('-')[0] === language);
    if (same) return same;
  }
  return DEFAULT_LOCALE;
}

/** The language tags of an Accept-Language header, most preferred first ("ru-RU,ru;q=0.9,en;q=0.8"). */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}

/**
 * Marks a text kept for later (a table of labels), said with t() where it is shown: the extractor collects it
 * like a t('...') text (scripts/i18n/messages.ts).
 */
export const msg = (text: string): string => text;

/** Values a message's {placeholders} take. */
export type MessageValues = Record<string, string | number>;
/** Says a text in the current (or a given) language: the English text is the key and the fallback. */
export type Translate = (english: string, values?: MessageValues) => string;

/** English as the code writes it, its {placeholders} filled: the translator of the default language. */
export const english: Translate = (text, values) =>
  values ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m)) : text;
