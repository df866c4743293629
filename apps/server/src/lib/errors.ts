import { ERROR_STATUS, type ErrorCode } from '@harvest/shared/errors';
import type { Params, Said } from '@harvest/shared/said';

/**
 * A failure the client is told about: its message is shown to the user as it is, its code is
 * what the client switches on, and the code alone decides the HTTP status (ERROR_STATUS). A message with
 * values (a Said) keeps its template and values, so the client can say it in another language.
 */
export class AppError extends Error {
  readonly template: string | undefined;
  readonly params: Params | undefined;
  /** The request body's property the failure is about, so a form shows it at that field. */
  field: string | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string | Said,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof message === 'string' ? message : message.text);
    this.name = 'AppError';
    if (typeof message !== 'string') {
      this.template = message.template;
      this.params = message.params;
    }
  }

  /** This failure is about the body's `field`. */
  about(field: string): this {
    this.field = field;
    return this;
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The codes whose status is S: `badRequest` cannot be given a code that answers 403. */
type CodeOf<S extends number> = { [K in ErrorCode]: (typeof ERROR_STATUS)[K] extends S ? K : never }[ErrorCode];
type Message = string | Said;

export const badRequest = (message: Message, code: CodeOf<400> = 'validation') => new AppError(code, message);
export const unauthorized = (message: Message, code: CodeOf<401> = 'unauthorized') => new AppError(code, message);
export const forbidden = (message: Message, code: CodeOf<403> = 'forbidden') => new AppError(code, message);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const conflict = (message: Message, code: CodeOf<409> = 'conflict') => new AppError(code, message);
export const tooMany = (message: Message, retryAfterSeconds: number) =>
  new AppError('rate_limited', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
