import { SMTPServer } from 'smtp-server';

type ConnectionPrototype = { init(): void; _setListeners(ready: () => void): void; connectionReady(): void };
// smtp-server waits 100 ms before its greeting to catch a client that talks too soon (spammers' trick); the
// app's mailer never does, and every mail of the suite would wait for it. The test's server greets at once.
const { SMTPConnection } = (await import('smtp-server/lib/smtp-connection.js' as string)) as {
  SMTPConnection: { prototype: ConnectionPrototype };
};
SMTPConnection.prototype.init = function (this: ConnectionPrototype) {
  this._setListeners(() => this.connectionReady());
};

export interface CapturedMail {
  to: string[];
  raw: string;
}

/** A received message's parts as the reader sees them (mailparser does not install here). */
export interface ReadMail {
  to: string[];
  subject: string;
  messageId: string;
  text: string;
  html: string;
}

function decodePart(body: string, encoding: string): string {
  if (/quoted-printable/i.test(encoding)) {
    const text = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const hex = text[i] === '=' ? /^[0-9A-F]{2}/i.exec(text.slice(i + 1, i + 3)) : null;
      if (hex) {
        bytes.push(parseInt(hex[0], 16));
        i += 2;
      } else bytes.push(text.charCodeAt(i));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** A header's RFC 2047 encoded words (a subject in Russian: =?UTF-8?B?...?=) as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, kind: string, body: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(body, 'base64').toString('utf8')
        : Buffer.from(
            body
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** The text/plain and text/html parts of a raw message, decoded, with its subject and Message-ID. */
export function readMail(m: CapturedMail): ReadMail {
  const head = m.raw.split(/\r?\n\r?\n/)[0] ?? '';
  const header = (name: string, from = head) =>
    new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(from)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
  const part = (type: string) => {
    const at = m.raw.search(new RegExp(`Content-Type: ${type}`, 'i'));
    if (at < 0) return '';
    const chunk = m.raw.slice(at);
    const split = chunk.search(/\r?\n\r?\n/);
    const partHead = chunk.slice(0, split);
    const bodyStart = chunk.slice(split).replace(/^\r?\n\r?\n/, '');
    const end = bodyStart.search(/\r?\n--/);
    // A one-part message carries its encoding in the message's own header.
    const encoding = header('Content-Transfer-Encoding', partHead) || header('Content-Transfer-Encoding');
    return decodePart(end < 0 ? bodyStart : bodyStart.slice(0, end), encoding);
  };
  return {
    to: m.to,
    subject: decodeWords(header('Subject')),
    messageId: header('Message-ID'),
    text: part('text/plain').replace(/\r\n/g, '\n'),
    html: part('text/html').replace(/\r\n/g, '\n'),
  };
}

/**
 * A real SMTP server inside the test process; the app sends to it through nodemailer. `port` binds a
 * given port (an SMTP server coming back after an outage); `refuse` answers every message with a
 * temporary failure (a server that is up but not accepting).
 */
export async function startSmtp(opts: { port?: number } = {}): Promise<{
  url: string;
  port: number;
  mails: CapturedMail[];
  codeFor(email: string): string;
  /** Received messages to one address, read. */
  mailsTo(email: string): ReadMail[];
  close(): Promise<void>;
}> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A test's server: no reverse lookup of 127.0.0.1, and closing it ends the senders' pooled connections at once.
    disableReverseLookup: true,
    closeTimeout: 1,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  // A sender killed mid-message (a system test's crash) resets its socket; smtp-server then emits 'error', which
  // with no listener would throw in the test process. That mail is simply not received; the outbox sends again.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    codeFor(email: string) {
      // The newest code mailed to the address (receipts to the same address carry none).
      const mail = [...mails]
        .reverse()
        .find((m) => m.to.includes(email.toLowerCase()) && /verification code is \d{6}/.test(m.raw));
      const code = mail && /verification code is (\d{6})/.exec(mail.raw)?.[1];
      if (!code) throw new Error(`no verification code mailed to ${email}`);
      return code;
    },
    mailsTo(email: string) {
      return mails.filter((m) => m.to.includes(email.toLowerCase())).map(readMail);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
