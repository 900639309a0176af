import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where the build records what it was built from (see `webSourceHash`). */
export const BUILD_INFO_FILE = 'build-info.json';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

function installedVersion(root: string, pkg: string): string {
  const json = JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string };
  return json.version;
}

/**
 * A digest of everything the committed build depends on: the app's sources, its build config and
 * the versions of the UI stack. The build stores it; a test recomputes it, so a source edited
 * without `npm run build:web` fails the test run instead of shipping a stale app.
 * @throws Error when a source folder or package is missing.
 */
export function webSourceHash(webDir: string): string {
  const root = path.resolve(webDir, '../..');
  const hash = createHash('sha256');
  const files = [path.join(webDir, 'index.html'), path.join(webDir, 'vite.config.ts'), ...filesUnder(path.join(webDir, 'src'))];
  for (const f of files) {
    // Line endings normalised: a checkout with CRLF builds the same app.
    hash.update(`${path.relative(webDir, f).split(path.sep).join('/')}\0${readFileSync(f, 'utf8').replace(/\r\n/g, '\n')}\0`);
  }
  for (const pkg of ['preact', 'vite']) hash.update(`${pkg}@${installedVersion(root, pkg)}\0`);
  return hash.digest('hex');
}
