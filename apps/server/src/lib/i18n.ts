import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { DEFAULT_LOCALE, isLocale, type Locale, type MessageValues, type Translate } from '@harvest/shared/i18n';
import ar from '@harvest/shared/locales/ar.json' with { type: 'json' };
import en from '@harvest/shared/locales/en.json' with { type: 'json' };
import es from '@harvest/shared/locales/es.json' with { type: 'json' };
import ptBR from '@harvest/shared/locales/pt-BR.json' with { type: 'json' };
import ru from '@harvest/shared/locales/ru.json' with { type: 'json' };
import tr from '@harvest/shared/locales/tr.json' with { type: 'json' };
import zhCN from '@harvest/shared/locales/zh-CN.json' with { type: 'json' };

/**
 * The server's side of the languages (docs/decisions/0075): what it writes for one person (their e-mails, their
 * statements) in that person's language, from the same catalogues as the web. API errors stay English (the spec's
 * contract); the web says them in the person's language.
 */
const CATALOGUES: Record<Locale, Record<string, string>> = {
  en,
  es,
  'pt-BR': ptBR,
  ru,
  tr,
  ar,
  'zh-CN': zhCN,
};

const instances = new Map<Locale, I18n>();

/** Each language compiled once, on its first use. */
function instance(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    const messages = Object.fromEntries(
      Object.entries({ ...CATALOGUES.en, ...CATALOGUES[locale] }).map(([k, v]) => [k, compileMessage(v)]),
    );
    i18n = setupI18n({ locale, messages: { [locale]: messages } });
    // A text the catalogue lacks (a test keeps them complete) is said in English rather than not at all.
    i18n.setMessagesCompiler(compileMessage);
    instances.set(locale, i18n);
  }
  return i18n;
}

/**
 * A text made elsewhere (a deposit's failure reason: the server's own words, or what an administrator typed) in
 * `locale` when the catalogue has it, else as it is: typed text is never read as a message.
 */
export function knownText(locale: string | null | undefined, text: string): string {
  const i18n = instance(isLocale(locale) ? locale : DEFAULT_LOCALE);
  return text in i18n.messages ? i18n._(text) : text;
}

/** `t` for one person: their language, English for an unknown one. */
export function translator(locale: string | null | undefined): Translate {
  const i18n = instance(isLocale(locale) ? locale : DEFAULT_LOCALE);
  return (english: string, values?: MessageValues) => i18n._(english, values);
}
