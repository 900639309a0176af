/**
 * The web app through a Redis outage: it still loads (its files never touch Redis, the rate
 * limiter's counts included), says what is wrong in a banner, never shows the outage as empty
 * data, and recovers by itself when Redis is back. `/metrics` answers throughout.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { HAVE_CHROMIUM, launchChromium, screenshotDir } from '../helpers/browser.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

if (!REDIS_AVAILABLE) console.warn('web app outage test skipped: redis-server is not installed');

const root = path.resolve(import.meta.dirname, '../..');
const SHOTS = screenshotDir();
const ADMIN = 'admin-key';
const AUTH = { authorization: `Bearer ${ADMIN}` };

/** Every table on the page has rows: an outage must not read as "no documents". */
async function tableRowCounts(page: Page): Promise<number[]> {
  return page.locator('table').evaluateAll((tables) => tables.map((t) => t.querySelectorAll('tbody tr').length));
}

describe.skipIf(!HAVE_CHROMIUM || !REDIS_AVAILABLE)('web app while Redis is down', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let browser: Browser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    // AOF on: the documents registered before the outage are there after it.
    redis = await startTestRedis({ appendonly: true });
    // The rate limit stays on (its default): its counts live in Redis, and must not take the app down.
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: 'query-key', QUARRY_ADMIN_KEYS: ADMIN });
    expect(ws.config.gateway.rateLimitPerMin).toBeGreaterThan(0);
    // Silent: every worker reports the outage it is put through, which is the point here.
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true, gateway: { port: 0 }, log: createLogger('silent') });
    base = service.gatewayUrl!;
    const pdf = await readFile(path.join(root, 'examples/docs/benefits-faq.pdf'));
    const up = await fetch(`${base}/v1/documents?filename=benefits-faq.pdf`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/pdf' }, body: pdf });
    expect(up.status).toBe(202);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('keeps the app up through the outage, marks what it shows as stale, and recovers by itself', async () => {
    await page.goto(`${base}/`);
    await page.fill('input[name=key]', ADMIN);
    await page.click('.key-form button[type=submit]');
    await page.waitForSelector('textarea[name=query]');
    await page.goto(`${base}/#/documents`);
    const row = page.locator('tr[data-doc="benefits-faq.pdf"][data-state=indexed]');
    await row.waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=outage]').count()).toBe(0);

    await redis.stop();
    // The open page: a banner, and the last list kept, marked stale, not emptied.
    const banner = page.locator('[data-testid=outage]');
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.getAttribute('data-health')).toBe('redis-unavailable');
    expect(await banner.textContent()).toMatch(/Redis/);
    await page.locator('[data-testid=listing][data-stale=true]').waitFor();
    expect(await row.count()).toBe(1);
    expect(await page.locator('[data-testid=no-documents]').count()).toBe(0);
    for (const rows of await tableRowCounts(page)) expect(rows).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SHOTS, 'outage.png') });

    // The app's files, its health check, the key check and the metrics do not need Redis.
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    const assets = [...(await index.text()).matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const a of assets) expect((await fetch(`${base}/${a}`)).status, a).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/v1/whoami`, { headers: AUTH })).json()).toEqual({ role: 'admin' });
    const during = await fetch(`${base}/metrics`);
    expect(during.status).toBe(200);
    const duringText = await during.text();
    expect(duringText).toMatch(/^quarry_redis_up 0$/m);
    // Queue gauges are left out, not reported as zero.
    expect(duringText).not.toMatch(/^quarry_jobs\{/m);
    expect((await fetch(`${base}/v1/documents`, { headers: AUTH })).status).toBe(503);

    // A fresh load during the outage: the app comes up, says why the list is missing, shows no empty table.
    await page.reload();
    await banner.waitFor({ timeout: 15_000 });
    await page.locator('[data-testid=list-error]').waitFor();
    expect(await page.textContent('[data-testid=list-error]')).toMatch(/REDIS_UNAVAILABLE/);
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.locator('input[name=key]').count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'outage-reload.png') });

    await redis.restart();
    // No reload: the banner goes and the list comes back, fresh.
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await row.waitFor({ timeout: 15_000 });
    await page.locator('[data-testid=listing][data-stale=false]').waitFor();
    const after = await (await fetch(`${base}/metrics`)).text();
    expect(after).toMatch(/^quarry_redis_up 1$/m);
    expect(after).toMatch(/^quarry_jobs\{queue="ingest-extract",state="completed"\} 1$/m);
  }, 120_000);
});
