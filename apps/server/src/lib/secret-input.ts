import { createReadStream, openSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';

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
  process.stderr.write(prompt);
  stdin.setRawMode(true);
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
 * Asks at the terminal (/dev/tty, not standard input, which may carry a secret) for `yes`. No terminal (a pipe, a
 * job without one): false, so nothing is signed unasked; the caller says how to confirm instead (--yes).
 */
export async function confirmed(prompt: string): Promise<boolean> {
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r');
  } catch {
    return false;
  }
  const input = createReadStream('', { fd });
  const rl = createInterface({ input, output: process.stderr, terminal: false });
  try {
    return (await rl.question(prompt)).trim().toLowerCase() === 'yes';
  } finally {
    rl.close();
    input.destroy();
  }
}
