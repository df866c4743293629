#!/usr/bin/env node
/**
 * Runs shell commands two at a time (the cores of the machines the project runs on), each one's output printed
 * whole when it ends; exits 1 if any failed. `node scripts/parallel.mjs "tsc -p a" "tsc -p b" ...`
 */
import { spawn } from 'node:child_process';

const AT_ONCE = 2;
const queue = process.argv.slice(2);
let failed = 0;

function run(cmd) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const s = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`${code === 0 ? 'ok  ' : 'FAIL'} ${cmd} (${s} s)\n${code === 0 ? '' : out}`);
      if (code !== 0) failed++;
      resolve();
    });
  });
}

async function lane() {
  for (let cmd = queue.shift(); cmd; cmd = queue.shift()) await run(cmd);
}

await Promise.all(Array.from({ length: AT_ONCE }, lane));
process.exit(failed > 0 ? 1 : 0);
