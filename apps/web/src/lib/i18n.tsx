import { Fragment, useSyncExternalStore, type ReactNode } from 'react';
import { i18n, type I18n, type MessageDescriptor, type Messages } from '@lingui/core';
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

/** A Lingui message descriptor whose values are already written in the current language's way. */
export interface Descriptor extends MessageDescriptor {
  values?: MessageValues;
}

/**
 * A message descriptor in the current language: its catalogue id (English with {placeholders}) said with its
 * values, or, in English or when the catalogue lacks it, its `message` (the English as the server wrote it).
 */
export function say(d: Descriptor): string {
  if (currentLocale() !== 'en' && d.id in i18n.messages) return i18n._(d.id, d.values);
  return d.message ?? english(d.id, d.values);
}

/**
 * A text made elsewhere without values (a server's error or a deposit's failure reason, a shared schema's
 * validation text) in the current language when the catalogue has it, else as it came.
 */
export const known = (text: string): string => say({ id: text, message: text });

/** Whether the current language's catalogue has this text. */
export const isKnown = (text: string): boolean => text in i18n.messages;

let codeTexts: Partial<Record<ErrorCode, string>> = {};
/** What an error code means, in a sentence (error-texts.ts), when the current language has it. */
export const codeText = (code: ErrorCode): string | undefined => codeTexts[code];

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
 * Switches the whole app to `locale`: loads its catalogue (and, for a language other than English, the codes'
 * sentences), then lays the page out in its direction; every component using `useLingui` draws again.
 * `remember` keeps it in this browser.
 */
export function setLocale(locale: Locale, { remember = true } = {}): Promise<void> {
  if (remember) localStorage.setItem(STORE_KEY, locale);
  const load = async () => {
    if (locale !== 'en') {
      const [catalogue, errors] = await Promise.all([CATALOGUES[locale](), import('@harvest/shared/error-texts')]);
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

const subscribe = (onChange: () => void) => i18n.on('change', onChange);

/**
 * The current language, for a component that says texts: it draws again, in place (what was typed and what is
 * open stay), when the language changes.
 */
export function useLingui(): { i18n: I18n; locale: Locale } {
  const locale = useSyncExternalStore(subscribe, currentLocale, currentLocale);
  return { i18n, locale };
}

/**
 * Lays the app out in the current language's direction: Radix's menus, tabs and dialogs follow it (arrow keys,
 * alignment) in Arabic.
 */
export function I18nProvider({ children }: { children: ReactNode }) {
  const { locale } = useLingui();
  return <DirectionProvider dir={directionOf(locale)}>{children}</DirectionProvider>;
}

/** Whole numbers in the current language's digits and grouping ("1,234", "1.234", "1 234"). */
export const formatCount = (n: number) => n.toLocaleString(intlLocale(currentLocale()));
