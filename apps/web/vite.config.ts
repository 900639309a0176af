import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { BUILD_INFO_FILE, webSourceHash } from './source-hash.ts';

const webDir = fileURLToPath(new URL('.', import.meta.url));

// The web app's build: Preact's JSX runtime, relative asset URLs (served at `/` by the gateway),
// and file names that depend on content only, so a rebuild of unchanged sources is identical.
// pdf.js is not bundled: the gateway serves pdfjs-dist's own build at /vendor/pdfjs/.
export default defineConfig({
  root: webDir,
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  plugins: [
    {
      name: 'quarry-build-info',
      closeBundle() {
        writeFileSync(path.join(webDir, 'dist', BUILD_INFO_FILE), `${JSON.stringify({ sourceHash: webSourceHash(webDir) }, null, 2)}\n`);
      },
    },
  ],
});
