import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';
import { ERROR_CODES } from '../errors.ts';
import { MSG } from '../messages.ts';
import { parseUsdc } from '../money.ts';

/** Every error answer: the text people read and the stable code clients switch on. */
export const errorResponse = z.object({ error: z.string(), code: z.enum(ERROR_CODES) });
export type ErrorResponse = z.infer<typeof errorResponse>;
export const messageResponse = z.object({ message: z.string() });

/** A required text field: missing, not a string or blank all give the same spec message. */
export function requiredText(message: string, max = 200) {
  return z.string({ error: message }).trim().min(1, message).max(max, message);
}

export const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const txHashSchema = z
  .string()
  .regex(TX_HASH, MSG.invalidTxHash)
  .transform((s) => s.toLowerCase());
export const addressSchema = z
  .string()
  .regex(EVM_ADDRESS, MSG.invalidWallet)
  .transform((s) => s.toLowerCase());

/** An id path/body parameter: a UUID. Anything else is simply not found. */
export const idSchema = z.string().uuid(MSG.notFound);

/**
 * A USDC amount (JSON number or decimal text, at most 6 decimals) parsed into micro-USDC.
 * `invalid` is the message for anything that is not such an amount.
 */
export function usdcAmount(invalid: string) {
  return z
    .union([z.number({ error: invalid }), z.string({ error: invalid })], { error: invalid })
    .transform((v, ctx) => {
      const micro = parseUsdc(v);
      if (micro === null) {
        ctx.addIssue({ code: 'custom', message: invalid });
        return z.NEVER;
      }
      return micro;
    });
}

/** USDC in responses: a JSON number with at most 6 decimals. */
export const usdc = z.number();
export const isoDate = z.string();

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
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  ...cursorParams,
});
export const searchText = z.string().trim().max(200).optional();

export const pageInfo = z.object({ page: z.number(), pageSize: z.number(), total: z.number(), ...cursorInfo });


/** Cache-busting time parameter some GET calls send (spec section 7). */
export const cacheBustQuery = z.strictObject({ t: z.string().max(30).optional(), _: z.string().max(30).optional() });
