/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** Writes .br and .gz beside every built asset; the server sends them as they are (no compression per request). */
function precompress(): Plugin {
  return {
    name: 'harvest-precompress',
    apply: 'build',
    closeBundle() {
      const dir = path.resolve(import.meta.dirname, 'dist/assets');
      for (const name of readdirSync(dir)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const file = path.join(dir, name);
        const data = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  // react-router's package exports point every bundler at its development build (extra checks and
  // warnings); its production build is the same API without them (docs/decisions/0040).
  resolve: {
    alias: [
      {
        find: /^react-router$/,
        replacement: path.join(path.dirname(require.resolve('react-router/package.json')), 'dist/production/index.mjs'),
      },
    ],
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Everything the entry loads at once goes into one chunk: one file compresses better than four
    // (about 1.3 KB gzip less on each first load; docs/decisions/0040).
    // Everything the entry loads at once goes into one chunk: one file compresses better than four
    // (about 1.3 KB gzip less on each first load; docs/decisions/0040).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } } },
  },
  // 15 s: the machine is shared, and typing into forms through user-event is slow there.
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
    testTimeout: 15_000,
  },
});
