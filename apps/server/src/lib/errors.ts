import { ERROR_STATUS, type ErrorCode } from '@harvest/shared/errors';

/**
 * A failure the client is told about: its message is shown to the user as it is, its code is
 * what the client switches on, and the code alone decides the HTTP status (ERROR_STATUS).
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The codes whose status is S: `badRequest` cannot be given a code that answers 403. */
type CodeOf<S extends number> = { [K in ErrorCode]: (typeof ERROR_STATUS)[K] extends S ? K : never }[ErrorCode];

export const badRequest = (message: string, code: CodeOf<400> = 'validation') => new AppError(code, message);
export const unauthorized = (message: string, code: CodeOf<401> = 'unauthorized') => new AppError(code, message);
export const forbidden = (message: string, code: CodeOf<403> = 'forbidden') => new AppError(code, message);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const conflict = (message: string, code: CodeOf<409> = 'conflict') => new AppError(code, message);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
