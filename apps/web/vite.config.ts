/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { compileMessage } from '@lingui/message-utils/compileMessage';

const require = createRequire(import.meta.url);

/**
 * The modules each page needs for its first paint besides the entry: the route's screen and, on
 * /dashboard, its default (investor) tab. The build lists their chunks, with every chunk they import
 * statically, in dist/.vite/route-preloads.json; the server puts them in that page's HTML as
 * modulepreload links, so they download beside the entry instead of after it has run (one round trip
 * less on a slow network). Keep in step with app/router.tsx (scripts/web-budget.mjs measures the same).
 */
const ROUTE_MODULES: Record<string, string[]> = {
  '/login': ['src/app/routes/login.tsx'],
  '/signup': ['src/app/routes/signup.tsx'],
  '/dashboard': ['src/app/routes/dashboard/dashboard.tsx', 'src/app/routes/dashboard/tabs/investor-dashboard.tsx'],
};

function routePreloads(): Plugin {
  return {
    name: 'harvest-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, seen: Set<string>) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const imp of byFile.get(file)?.imports ?? []) closure(imp, seen);
      };
      // What index.html already loads: the entry and its static imports.
      const inHtml = new Set<string>();
      for (const c of chunks) if (c.isEntry) closure(c.fileName, inHtml);
      const routes: Record<string, string[]> = {};
      for (const [route, modules] of Object.entries(ROUTE_MODULES)) {
        const files = new Set<string>();
        for (const m of modules) {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(`/apps/web/${m}`));
          if (!chunk) throw new Error(`route-preloads: no chunk for ${m}`);
          closure(chunk.fileName, files);
        }
        routes[route] = [...files].filter((f) => !inHtml.has(f)).map((f) => `/${f}`);
      }
      this.emitFile({ type: 'asset', fileName: '.vite/route-preloads.json', source: JSON.stringify(routes, null, 1) });
    },
  };
}

/** Writes .br and .gz beside every built asset; the server sends them as they are (no compression per request). */
function precompress(): Plugin {
  // Where this build writes (--outDir: the budget check builds elsewhere).
  let dir = '';
  return {
    name: 'harvest-precompress',
    apply: 'build',
    configResolved(config) {
      dir = path.resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    closeBundle() {
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

/**
 * A language's catalogue (@harvest/shared/locales/<locale>.json) is imported already compiled by Lingui's compiler
 * (docs/decisions/0075), so the browser gets no compiler.
 */
function i18nMessages(): Plugin {
  const CATALOGUE = /^@harvest\/shared\/locales\/([\w-]+)\.json$/;
  const PREFIX = '\0harvest-locale:';
  const locales = path.resolve(import.meta.dirname, '../../packages/shared/src/locales');
  return {
    name: 'harvest-i18n',
    enforce: 'pre',
    resolveId(source) {
      const m = CATALOGUE.exec(source);
      return m ? `${PREFIX}${m[1]}` : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = path.join(locales, `${id.slice(PREFIX.length)}.json`);
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const compiled = Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, compileMessage(v)]));
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}

export default defineConfig({
  plugins: [i18nMessages(), react(), tailwindcss(), precompress(), routePreloads()],
  // react-router's package exports point every bundler at its development build (extra checks and
  // warnings); its production build is the same API without them (docs/decisions/0081).
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
    // (about 1.3 KB gzip less on each first load; docs/decisions/0081).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } } },
  },
  // 15 s: the machine is shared, and typing into forms through user-event is slow there.
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // One jsdom per worker, modules loaded once: the files clean up after themselves (render.tsx, test-setup.ts),
    // and a new window per file cost four times the tests' own time.
    isolate: false,
    // In `npm test` (the root's projects) after the server's files: a worker that switched between them would make a
    // new window for every web file.
    sequence: { groupOrder: 1 },
    setupFiles: ['./src/test-setup.ts'],
    testTimeout: 15_000,
  },
});
