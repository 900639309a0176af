import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest folder at or above `from` that holds a `package.json`: Quarry's checkout (or image
 * root), found the same way from sources (`apps/cli/commands/`) and from the compiled tree
 * (`dist/apps/cli/commands/`, which has no package.json of its own), so files kept beside the
 * sources (`examples/`, `.quarry/`) are found from both.
 *
 * @param from a folder, usually `import.meta.dirname`.
 * @throws Error when no folder up to the file-system root has a package.json.
 */
export function packageRoot(from: string): string {
  let dir = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json at or above ${from}`);
    dir = parent;
  }
}
