import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Reads a secret from standard input, never from the environment: piped (`< key.txt`) as it is, or typed at a
 * terminal after `prompt` without being echoed. Nothing here prints or keeps it.
 */
export async function readSecret(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  // No echo before the prompt shows: a secret pasted the moment it appears is not printed.
  stdin.setRawMode(true);
  process.stderr.write(prompt);
  stdin.resume();
  return new Promise((resolve) => {
    let typed = '';
    const onData = (d: Buffer) => {
      for (const ch of d.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          resolve(typed);
          return;
        }
        if (ch === '\u0003') process.exit(130);
        typed = ch === '\u007f' ? typed.slice(0, -1) : typed + ch;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * Asks at the terminal (/dev/tty, not standard input, which may carry a secret) for `yes`, reading one line and no
 * more (a synchronous read: nothing typed after it, such as the secret, is taken). No terminal (a pipe, a job
 * without one): false, so nothing is signed unasked; the caller says how to confirm instead (--yes).
 */
export function confirmed(prompt: string): boolean {
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r');
  } catch {
    return false;
  }
  try {
    process.stderr.write(prompt);
    const buf = Buffer.alloc(256);
    let line = '';
    while (!line.includes('\n')) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      line += buf.toString('utf8', 0, n);
    }
    return line.trim().toLowerCase() === 'yes';
  } finally {
    closeSync(fd);
  }
}
