import * as z from 'zod/mini';
import { DEFAULT_PAGE_SIZE, MAX_LENGTH, MAX_PAGE_SIZE } from '../constants.ts';
import { ERROR_CODES } from '../errors.ts';
import type { Said } from '../said.ts';
import { TEXT } from '../texts.ts';
import { exceedsMaxAmount, parseUsdc } from '../money.ts';

/*
 * Schemas are written with `zod/mini` (functional forms: `z.optional(x)`, checks in `.check(...)`), so
 * the web app's first load carries the small tree-shakable core instead of the whole classic API
 * (docs/decisions/0022). The server reads the same schemas through fastify-type-provider-zod.
 */

/**
 * A text with values (said.ts) beside its English: the English with {placeholders} (the catalogue's key) and the
 * values, so a client says it in the person's language.
 */
export const paramsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export const saidFields = { template: z.optional(z.string()), params: z.optional(paramsSchema) };
/** A stored text's template and values beside its English (a deposit's failure reason, an event's detail); null for a text without values, or one stored before they were kept. */
export const storedSaidSchema = z.nullable(z.object({ template: z.string(), params: paramsSchema }));

/**
 * Every error answer: the text people read, the stable code clients switch on, the body's property it is about
 * (when it is about one: a form shows it at that field), and the text's values if it has any.
 */
export const errorResponse = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES),
  field: z.optional(z.string()),
  ...saidFields,
});
export type ErrorResponse = z.infer<typeof errorResponse>;
export const messageResponse = z.object({ message: z.string(), ...saidFields });

/** A length limit whose text has values (tooLongText): the issue carries them, as an error answer does. */
export const atMost = <T extends { length: number }>(max: number, s: Said) =>
  z.refine<T>((v) => v.length <= max, { error: s.text, params: { template: s.template, params: s.params } });

/**
 * A required text field: missing, not a string or blank all give the same spec message; longer than `max`
 * gives `tooLong` (say which field and its limit, not "required") when there is one.
 */
export function requiredText(message: string, max = 200, tooLong?: Said) {
  return z
    .string({ error: message })
    .check(z.trim(), z.minLength(1, message), tooLong ? atMost<string>(max, tooLong) : z.maxLength(max, message));
}

/** Converts a checked value, or reports `message` (or the message it gives for the value) when `fn` answers null. */
export function convert<I extends z.core.$ZodType, O>(
  input: I,
  fn: (v: z.output<I>) => O | null,
  message: string | ((v: z.output<I>) => string),
) {
  return z.pipe(
    input,
    z.transform((v: z.output<I>, ctx) => {
      const out = fn(v);
      if (out === null) {
        ctx.issues.push({ code: 'custom', message: typeof message === 'string' ? message : message(v), input: v });
        return z.NEVER;
      }
      return out;
    }),
  );
}

export const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const txHashSchema = z.string().check(z.regex(TX_HASH, TEXT.invalidTxHash), z.toLowerCase());
export const addressSchema = z.string().check(z.regex(EVM_ADDRESS, TEXT.invalidWallet), z.toLowerCase());

/** An id path/body parameter: a UUID. Anything else is simply not found. */
export const idSchema = z.uuid(TEXT.notFound);

/** The message for an amount parseUsdc refused: too large (with the limit), else `invalid`. */
export const amountMessage = (invalid: string) => (v: unknown) => (exceedsMaxAmount(v) ? TEXT.amountTooLarge : invalid);

/**
 * A USDC amount (JSON number or decimal text, at most 6 decimals) parsed into micro-USDC.
 * `invalid` is the message for anything that is not such an amount; one above the maximum is too large.
 */
export function usdcAmount(invalid: string) {
  return convert(
    z.union([z.number({ error: invalid }), z.string({ error: invalid })], { error: invalid }),
    (v) => parseUsdc(v),
    amountMessage(invalid),
  );
}

/** USDC in responses: a JSON number with at most 6 decimals. */
export const usdc = z.number();
export const isoDate = z.string();

/** A page-size query parameter with its default. */
export function pageSizeQuery(fallback: number) {
  return z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_PAGE_SIZE)), fallback);
}

/**
 * Keyset paging for the back-office lists (docs/decisions/0036-keyset-paging.md): `after` the
 * `nextCursor` of a page gives the next one, `before` its `prevCursor` the previous one, each as
 * fast as the first page; `page` alone still works (served from the nearer end of the list).
 */
export const cursorParams = {
  after: z.optional(z.string().check(z.maxLength(300))),
  before: z.optional(z.string().check(z.maxLength(300))),
};
export const cursorInfo = {
  nextCursor: z.optional(z.nullable(z.string())),
  prevCursor: z.optional(z.nullable(z.string())),
};

/** One page of a list: every paged query extends this. */
export const pageQuery = z.strictObject({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000_000)), 1),
  pageSize: pageSizeQuery(DEFAULT_PAGE_SIZE),
  ...cursorParams,
});
export const searchText = z.optional(z.string().check(z.trim(), z.maxLength(MAX_LENGTH.search)));

export const pageInfo = z.object({ page: z.number(), pageSize: z.number(), total: z.number(), ...cursorInfo });

/** Cache-busting time parameter some GET calls send (spec section 7). */
export const cacheBustQuery = z.strictObject({
  t: z.optional(z.string().check(z.maxLength(30))),
  _: z.optional(z.string().check(z.maxLength(30))),
});
