import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { i18n, type Messages } from '@lingui/core';
import { DirectionProvider } from '@radix-ui/react-direction';
import type { ErrorCode } from '@harvest/shared/errors';
import {
  DEFAULT_LOCALE,
  english,
  directionOf,
  intlLocale,
  isLocale,
  matchLocale,
  type Locale,
  type MessageValues,
} from '@harvest/shared/i18n';

/*
 * The screens' language (docs/decisions/0075): Lingui's runtime with compiled catalogues. English is written
 * where it is shown, `t('Welcome Back')`, and is the key of every other language's catalogue
 * (packages/shared/src/locales/<locale>.json, loaded on demand, compiled by the build: the i18n plugin in
 * vite.config.ts), so no message compiler reaches the browser.
 */

const STORE_KEY = 'locale';
const CATALOGUES: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = {
  es: () => import('@harvest/shared/locales/es.json'),
  'pt-BR': () => import('@harvest/shared/locales/pt-BR.json'),
  ru: () => import('@harvest/shared/locales/ru.json'),
  tr: () => import('@harvest/shared/locales/tr.json'),
  ar: () => import('@harvest/shared/locales/ar.json'),
  'zh-CN': () => import('@harvest/shared/locales/zh-CN.json'),
};

i18n.loadAndActivate({ locale: DEFAULT_LOCALE, messages: {} });

export const currentLocale = (): Locale => (isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE);

/**
 * `text` (English, as the spec writes it) in the current language, its {placeholders} filled from `values`. A
 * text the catalogue lacks (a test keeps them complete) shows in English rather than not at all.
 */
export function t(text: string, values?: MessageValues): string {
  return text in i18n.messages ? i18n._(text, values) : english(text, values);
}

/**
 * A text made elsewhere, in the current language: the server's (errors, receipts, a failed deposit's reason) or a
 * shared schema's (validation). The catalogue has every text the server and the schemas say; one with values in
 * it ("... 2h 5m left.") is recognised by its English pattern (text-templates.ts) and said again with the same
 * values. Unknown text stays as it came.
 */
export function tx(text: string): string {
  if (currentLocale() === 'en' || !text) return text;
  if (text in i18n.messages) return i18n._(text);
  for (const p of patterns) {
    const m = p.re.exec(text);
    if (m?.groups) {
      const values: MessageValues = {};
      for (const [k, v] of Object.entries(m.groups)) values[k] = part(v);
      return i18n._(p.id, values);
    }
  }
  return text;
}

/** A value inside a recognised text: a known word ("First name") or a part pattern ("2h 5m"), else as it is. */
function part(v: string): string {
  if (v in i18n.messages) return i18n._(v);
  for (const p of partPatterns) {
    const m = p.re.exec(v);
    if (m?.groups) return i18n._(p.id, { ...m.groups });
  }
  return v;
}

interface Pattern {
  id: string;
  re: RegExp;
}
let patterns: Pattern[] = [];
let partPatterns: Pattern[] = [];
let codeTexts: Partial<Record<ErrorCode, string>> = {};

/**
 * What a failed call says, in the current language (docs/decisions/0075): English shows the server's text (the
 * spec: the server's text when present); another language shows that text's translation when the catalogue has
 * it, else the translation of the error's code, else the server's text.
 */
export function serverText(text: string, code: ErrorCode | null): string {
  const said = tx(text);
  if (said !== text || currentLocale() === 'en' || !code) return said;
  const byCode = codeTexts[code];
  return byCode ? t(byCode) : text;
}

/**
 * A message with <0>marked</0> parts (a link or emphasis inside a sentence, where word order differs between
 * languages): each part is drawn by the function at its number.
 */
export function rich(message: string, parts: ((text: string) => ReactNode)[]): ReactNode {
  const out: ReactNode[] = [];
  const re = /<(\d+)>([\s\S]*?)<\/\1>/g;
  let last = 0;
  for (let m = re.exec(message); m; m = re.exec(message)) {
    if (m.index > last) out.push(message.slice(last, m.index));
    const draw = parts[Number(m[1])];
    out.push(<Fragment key={m.index}>{draw ? draw(m[2] ?? '') : m[2]}</Fragment>);
    last = m.index + m[0].length;
  }
  if (last < message.length) out.push(message.slice(last));
  return out;
}

/** The language a first visit starts in: the one chosen in this browser before, else the browser's. */
export function initialLocale(): Locale {
  const stored = localStorage.getItem(STORE_KEY);
  if (isLocale(stored)) return stored;
  return matchLocale(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
}

const UNSAVED_KEY = 'localeUnsaved';
/**
 * A language chosen on the menu while signed out (sign-in, signup) is the person's latest word: the next sign-in
 * saves it on the account instead of taking the account's.
 */
export const localeUnsaved = () => localStorage.getItem(UNSAVED_KEY) === '1';
export const markLocaleUnsaved = (unsaved: boolean) =>
  unsaved ? localStorage.setItem(UNSAVED_KEY, '1') : localStorage.removeItem(UNSAVED_KEY);

let loading: Promise<void> = Promise.resolve();

/**
 * Switches the whole app to `locale`: loads its catalogue (and, for a language other than English, the English
 * patterns of the server's texts and the codes' texts), then lays the page out in its direction. `remember`
 * keeps it in this browser.
 */
export function setLocale(locale: Locale, { remember = true } = {}): Promise<void> {
  if (remember) localStorage.setItem(STORE_KEY, locale);
  const load = async () => {
    if (locale !== 'en') {
      const [catalogue, templates, errors] = await Promise.all([
        CATALOGUES[locale](),
        import('@harvest/shared/text-templates'),
        import('@harvest/shared/error-texts'),
      ]);
      const patternOf = (id: string): Pattern => ({ id, re: templates.templatePattern(id) });
      patterns = templates.TEXT_TEMPLATES.map(patternOf);
      partPatterns = templates.PART_TEMPLATES.map(patternOf);
      codeTexts = errors.CODE_TEXT;
      i18n.loadAndActivate({ locale, messages: catalogue.default });
    } else {
      i18n.loadAndActivate({ locale, messages: {} });
    }
    const html = document.documentElement;
    html.lang = locale;
    html.dir = directionOf(locale);
  };
  // In order: a quick second choice never lands before a slower first one.
  loading = loading.then(load, load);
  return loading;
}

let redrawing = false;
/** Whether the app is being drawn again for a new language: each form then takes up what was typed in it (form.ts). */
export const isRedrawing = () => redrawing;

/**
 * Draws its children again, from scratch, in the new language when it changes: every component says its texts
 * with `t` as it renders, so none is left in the old language (a language is changed rarely; the session and
 * the fetched data live above this, in the auth provider and the query cache).
 */
export function I18n({ children }: { children: ReactNode }) {
  const [locale, setShown] = useState(currentLocale);
  const shown = useRef(locale);
  useEffect(
    () =>
      i18n.on('change', () => {
        if (currentLocale() === shown.current) return;
        shown.current = currentLocale();
        redrawing = true;
        setShown(shown.current);
      }),
    [],
  );
  useEffect(() => {
    redrawing = false;
  }, [locale]);
  // Radix's menus, tabs and dialogs follow the page's direction (arrow keys, alignment) in Arabic.
  return (
    <DirectionProvider dir={directionOf(locale)}>
      <Fragment key={locale}>{children}</Fragment>
    </DirectionProvider>
  );
}

/** Whole numbers in the current language's digits and grouping ("1,234", "1.234", "1 234"). */
export const formatCount = (n: number) => n.toLocaleString(intlLocale(currentLocale()));
