/**
 * What the web app's browser tests share: Debian's chromium driven by playwright-core (no browser
 * download), where screenshots go, and small page probes.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The browser the tests drive; without it they are skipped with a printed reason. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`web app browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Where screenshots go: docs/screenshots (tracked, shown in the README) only when
 * QUARRY_UPDATE_SCREENSHOTS=1 (`npm run screenshots`); otherwise the git-ignored
 * tests/e2e/screenshots, so `npm test` leaves the working tree as it was.
 */
export function screenshotDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.QUARRY_UPDATE_SCREENSHOTS === '1' ? path.join(root, 'docs/screenshots') : path.join(root, 'tests/e2e/screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Launches the browser headless, as a container allows. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** Drops files on an element the way a browser does: a DataTransfer with File objects. */
export async function dropFiles(page: Page, selector: string, files: { name: string; bytes: Buffer | Uint8Array }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, b64: Buffer.from(f.bytes).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: 'application/pdf' }));
    }
    return dt;
  }, payload);
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

/**
 * How far the page scrolls sideways: the document's scroll width beyond its client width (0 when
 * it does not), with the widest elements that stick out past the right edge, to name the culprit.
 */
export async function horizontalOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const el = document.documentElement;
    const width = el.clientWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)}px)`);
    return { overflow: el.scrollWidth - width, culprits };
  });
}

/** The computed text colour of the first element `selector` matches, as `rgb(r, g, b)`. */
export function colourOf(page: Page, selector: string): Promise<string> {
  return page.locator(selector).first().evaluate((e) => getComputedStyle(e).color);
}
