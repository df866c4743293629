import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { MSG } from '@harvest/shared/messages';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The same message as simple HTML (receipts); sent as multipart/alternative with the text. */
  html?: string;
  /** A stable Message-ID (the outbox row's), so a resend is recognisable as the same message. */
  messageId?: string;
}
export interface Mailer {
  send(mail: Mail, devLogLine?: string): Promise<void>;
}

/**
 * Real SMTP through nodemailer when SMTP_URL is set. Without it, outside production, the
 * mail is not sent and `devLogLine` (e.g. the signup code) is written to the server log so
 * a developer can sign up locally; in production the call fails clearly.
 */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  production: boolean;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    // Bounded waits: a server that accepts connections and then hangs fails the attempt (to be retried)
    // well within the outbox's lease, instead of holding it.
    // nodemailer is loaded with the first mail, not at startup.
    let transport: Promise<import('nodemailer').Transporter> | undefined;
    const transporter = () =>
      (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          url: opts.smtpUrl,
          connectionTimeout: 20_000,
          greetingTimeout: 20_000,
          socketTimeout: 30_000,
        }),
      ));
    return {
      async send(mail) {
        try {
          await (
            await transporter()
          ).sendMail({
            from: opts.from,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            ...(mail.html ? { html: mail.html } : {}),
            ...(mail.messageId ? { messageId: mail.messageId } : {}),
          });
        } catch (err) {
          opts.log.error({ err: err instanceof Error ? err.message : String(err) }, 'SMTP delivery failed');
          throw new AppError('unavailable', MSG.mailFailed);
        }
      },
    };
  }
  return {
    async send(mail, devLogLine) {
      if (opts.production) throw new AppError('unavailable', MSG.mailUnavailable);
      // Development only: no SMTP configured, so the developer reads the code here.
      opts.log.warn(`[dev mail, SMTP_URL unset] to ${mail.to}: ${devLogLine ?? mail.subject}`);
    },
  };
}
