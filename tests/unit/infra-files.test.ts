import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../..');
const read = (rel: string): string => readFileSync(path.join(root, rel), 'utf8');

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
function obj(v: unknown, what: string): Obj {
  if (!isObj(v)) throw new Error(`${what}: expected a mapping, got ${JSON.stringify(v)}`);
  return v;
}
function list(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new Error(`${what}: expected a list, got ${JSON.stringify(v)}`);
  return v;
}
/** A compose `command`/healthcheck `test` as one string, whether written as a list or a string. */
const words = (v: unknown): string => (Array.isArray(v) ? v.map(String).join(' ') : String(v ?? ''));

const compose = obj(parse(read('infra/docker-compose.yml')), 'infra/docker-compose.yml');
const services = obj(compose.services, 'compose services');
const service = (name: string): Obj => obj(services[name], `compose service "${name}"`);
const otel = obj(parse(read('infra/otel-collector.yaml')), 'infra/otel-collector.yaml');
const dockerfile = read('infra/Dockerfile');
const workflow = obj(parse(read('.github/workflows/weaviate.yml')), '.github/workflows/weaviate.yml');

/** Services that cannot carry a compose healthcheck (each one says why in a comment in the file). */
const NO_HEALTHCHECK = ['otel-collector'];
const PINNED = /:\d+\.\d+\.\d+$/;

/** `repo[:tag]` → the tag, or undefined when the reference has none. */
function imageTag(image: string): string | undefined {
  const last = image.split('/').pop() ?? '';
  return last.includes(':') ? last.split(':').pop() : undefined;
}

describe('infra/docker-compose.yml', () => {
  it('has no obsolete version key and every expected service', () => {
    expect(compose, 'the Compose spec has no "version:" key').not.toHaveProperty('version');
    for (const name of ['redis', 'weaviate', 'minio', 'otel-collector', 'jaeger', 'quarry']) {
      expect(services, `service "${name}" is missing`).toHaveProperty(name);
    }
  });

  it('gives every service a healthcheck, except the documented ones', () => {
    for (const [name, raw] of Object.entries(services)) {
      const svc = obj(raw, `service "${name}"`);
      if (NO_HEALTHCHECK.includes(name)) {
        expect(svc.healthcheck, `"${name}" is listed as unable to carry a healthcheck`).toBeUndefined();
        continue;
      }
      const hc = obj(svc.healthcheck, `service "${name}" healthcheck`);
      expect(words(hc.test), `service "${name}" healthcheck.test is empty`).toMatch(/^CMD(-SHELL)? \S/);
    }
  });

  it('pins every image to an explicit tag', () => {
    for (const [name, raw] of Object.entries(services)) {
      const svc = obj(raw, `service "${name}"`);
      if (svc.image === undefined) {
        expect(svc.build, `service "${name}" has neither image nor build`).toBeDefined();
        continue;
      }
      const tag = imageTag(String(svc.image));
      expect(tag, `service "${name}" image ${String(svc.image)} has no tag`).toBeTruthy();
      expect(tag, `service "${name}" image ${String(svc.image)} uses :latest`).not.toBe('latest');
    }
  });

  it('runs Redis with AOF and noeviction', () => {
    const cmd = words(service('redis').command);
    expect(cmd, 'redis command lacks "--appendonly yes"').toMatch(/--appendonly yes\b/);
    expect(cmd, 'redis command lacks "--maxmemory-policy noeviction"').toMatch(/--maxmemory-policy noeviction\b/);
  });

  it('configures Weaviate: Korean tokenizer, no autoschema, pinned image, persisted data path', () => {
    const w = service('weaviate');
    const env = obj(w.environment, 'weaviate environment');
    expect(env.ENABLE_TOKENIZER_KAGOME_KR, 'weaviate ENABLE_TOKENIZER_KAGOME_KR').toBe('true');
    expect(env.AUTOSCHEMA_ENABLED, 'weaviate AUTOSCHEMA_ENABLED').toBe('false');
    expect(String(w.image), 'weaviate image is not pinned to x.y.z').toMatch(PINNED);
    const dataPath = String(env.PERSISTENCE_DATA_PATH);
    const targets = list(w.volumes, 'weaviate volumes').map((v) => (isObj(v) ? String(v.target) : String(v).split(':')[1]));
    expect(targets, `weaviate has no volume on PERSISTENCE_DATA_PATH ${dataPath}`).toContain(dataPath);
  });

  it('starts quarry on Weaviate once Redis and Weaviate are healthy', () => {
    const q = service('quarry');
    const deps = obj(q.depends_on, 'quarry depends_on');
    for (const dep of ['redis', 'weaviate']) {
      expect(obj(deps[dep], `quarry depends_on.${dep}`).condition, `quarry depends_on.${dep}.condition`).toBe('service_healthy');
    }
    expect(obj(q.environment, 'quarry environment').VECTOR_STORE, 'quarry VECTOR_STORE').toBe('weaviate');
  });

  it('declares every named volume it mounts', () => {
    const declared = Object.keys(obj(compose.volumes, 'top-level volumes'));
    for (const [name, raw] of Object.entries(services)) {
      for (const v of (obj(raw, name).volumes as unknown[] | undefined) ?? []) {
        const source = isObj(v) ? String(v.source ?? '') : String(v).split(':')[0] ?? '';
        if (!source || /^[./~$]/.test(source)) continue; // bind mounts and anonymous volumes
        expect(declared, `service "${name}" mounts volume "${source}", which is not declared`).toContain(source);
      }
    }
  });
});

describe('infra/otel-collector.yaml', () => {
  const svc = obj(otel.service, 'otel service');

  it('pipelines reference only declared receivers, processors and exporters', () => {
    const pipelines = obj(svc.pipelines, 'otel service.pipelines');
    expect(Object.keys(pipelines), 'otel pipelines').toEqual(expect.arrayContaining(['traces', 'metrics']));
    for (const [pipeline, raw] of Object.entries(pipelines)) {
      const p = obj(raw, `otel pipeline ${pipeline}`);
      for (const kind of ['receivers', 'processors', 'exporters']) {
        const declared = Object.keys(obj(otel[kind], `otel ${kind}`));
        for (const id of list(p[kind] ?? [], `otel pipeline ${pipeline}.${kind}`)) {
          expect(declared, `pipeline "${pipeline}" uses ${kind.slice(0, -1)} "${String(id)}", which is not declared`).toContain(id);
        }
      }
    }
    expect(Object.keys(obj(otel.exporters, 'otel exporters')), 'otel exporters').toEqual(expect.arrayContaining(['otlp/jaeger', 'debug']));
  });

  it('enables the health_check extension on 0.0.0.0:13133', () => {
    expect(list(svc.extensions, 'otel service.extensions'), 'service.extensions lacks health_check').toContain('health_check');
    const hc = obj(obj(otel.extensions, 'otel extensions').health_check, 'otel extensions.health_check');
    expect(hc.endpoint, 'health_check endpoint').toBe('0.0.0.0:13133');
  });
});

describe('infra/Dockerfile', () => {
  const lines = dockerfile.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const froms = lines.filter((l) => /^FROM\s/i.test(l));

  it('is multi-stage on pinned base images', () => {
    expect(froms.length, 'fewer than two FROM stages').toBeGreaterThanOrEqual(2);
    for (const from of froms) {
      const image = from.split(/\s+/)[1] ?? '';
      expect(imageTag(image), `${from}: base image has no tag`).toBeTruthy();
      expect(imageTag(image), `${from}: base image uses :latest`).not.toBe('latest');
    }
  });

  it('installs with npm ci, runs as a non-root user and enters through the compiled bin (apps/cli/quarry-dist.mjs)', () => {
    expect(dockerfile, 'no "npm ci"').toMatch(/RUN[^\n]*npm ci\b/);
    const user = lines.filter((l) => /^USER\s/i.test(l)).pop();
    expect(user, 'no USER line').toBeDefined();
    expect(user?.split(/\s+/)[1], 'the final USER is root').not.toMatch(/^(root|0)(:|$)/);
    expect(lines.find((l) => /^ENTRYPOINT\s/i.test(l)), 'ENTRYPOINT does not run apps/cli/quarry-dist.mjs').toMatch(/apps\/cli\/quarry-dist\.mjs/);
  });

  it('builds dist/ in a build stage and runs it on production dependencies only, without tsx', () => {
    expect(dockerfile, 'no stage runs "npm run build"').toMatch(/RUN[^\n]*npm run build\b/);
    expect(dockerfile, 'the runtime does not copy dist/ from the build stage').toMatch(/COPY --from=build \S*dist \S*dist/);
    expect(dockerfile, 'no production-only install').toMatch(/npm ci --omit=dev/);
    // The runtime carries no TypeScript sources to compile at start-up.
    const runtime = dockerfile.slice(dockerfile.search(/^FROM .* AS runtime/im));
    expect(runtime, 'the runtime stage copies TypeScript sources').not.toMatch(/^COPY (apps|core|workers|queues|shared) /m);
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string>; bin: Record<string, string> };
    expect(pkg.dependencies, 'tsx is a run-time dependency').not.toHaveProperty('tsx');
    expect(pkg.devDependencies).toHaveProperty('tsx');
    expect(pkg.scripts.build).toMatch(/tsc -p tsconfig\.build\.json/);
    expect(pkg.bin.quarry).toBe('apps/cli/quarry-dist.mjs');
  });

  it("fills Node's compile cache as the runtime user, in a folder that user owns", () => {
    const runtime = dockerfile.slice(dockerfile.search(/^FROM .* AS runtime/im));
    const dir = /NODE_COMPILE_CACHE=(\S+)/.exec(runtime)?.[1];
    expect(dir, 'the runtime stage does not set NODE_COMPILE_CACHE').toBeDefined();
    const runtimeLines = runtime.split('\n').map((l) => l.trim());
    const userAt = runtimeLines.findLastIndex((l) => /^USER\s/i.test(l));
    const warmAt = runtimeLines.findIndex((l) => /^RUN node dist\/apps\/cli\/warm-compile-cache\.js$/.test(l));
    expect(warmAt, 'the runtime stage does not run dist/apps/cli/warm-compile-cache.js').toBeGreaterThan(-1);
    expect(warmAt, 'the cache is filled before the final USER line (another user id than the processes)').toBeGreaterThan(userAt);
    expect(runtime, `${dir} is not made and given to the node user`).toMatch(new RegExp(`chown[^\\n]*node:node[^\\n]*${(dir ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});

describe('.github/workflows/weaviate.yml', () => {
  const jobs = obj(workflow.jobs, 'workflow jobs');
  const job = obj(jobs.weaviate, 'job "weaviate"');
  const steps = list(job.steps, 'job weaviate steps').map((s, i) => obj(s, `weaviate step ${i}`));
  const stepRunning = (needle: string): Obj | undefined => steps.find((s) => String(s.run ?? '').includes(needle));

  it('runs on push and pull_request (YAML 1.2 keeps "on" a string key)', () => {
    expect(Object.keys(workflow), 'the "on" key parsed as something else').toContain('on');
    const on = obj(workflow.on, 'workflow on');
    expect(on, 'workflow on.push').toHaveProperty('push');
    expect(on, 'workflow on.pull_request').toHaveProperty('pull_request');
  });

  it('has Redis and Weaviate services, Weaviate on the compose image with HTTP and gRPC ports', () => {
    const svcs = obj(job.services, 'job weaviate services');
    expect(svcs, 'job weaviate lacks a redis service').toHaveProperty('redis');
    const w = obj(svcs.weaviate, 'job weaviate services.weaviate');
    expect(w.image, 'workflow weaviate image differs from compose').toBe(service('weaviate').image);
    const ports = list(w.ports, 'weaviate service ports').map(String).join(' ');
    for (const port of ['8080', '50051']) expect(ports, `weaviate service does not publish ${port}`).toMatch(new RegExp(`\\b${port}\\b`));
    const env = obj(w.env, 'weaviate service env');
    expect(env.ENABLE_TOKENIZER_KAGOME_KR, 'workflow weaviate ENABLE_TOKENIZER_KAGOME_KR').toBe('true');
    expect(env.AUTOSCHEMA_ENABLED, 'workflow weaviate AUTOSCHEMA_ENABLED').toBe('false');
  });

  it('runs the Weaviate contract suite and the acceptance tests on Weaviate', () => {
    const contract = stepRunning('tests/contract/weaviate-store.test.ts');
    expect(contract, 'no step runs tests/contract/weaviate-store.test.ts').toBeDefined();
    expect(obj(contract?.env, 'contract step env'), 'contract step env lacks WEAVIATE_URL').toHaveProperty('WEAVIATE_URL');
    const acceptance = stepRunning('tests/e2e/acceptance.test.ts');
    expect(acceptance, 'no step runs tests/e2e/acceptance.test.ts').toBeDefined();
    expect(obj(acceptance?.env, 'acceptance step env').VECTOR_STORE, 'acceptance step VECTOR_STORE').toBe('weaviate');
  });

  it('names only test files that exist (globs excepted)', () => {
    const named = steps
      .flatMap((s) => String(s.run ?? '').split('\n'))
      .filter((l) => /\bvitest run\b/.test(l))
      .flatMap((l) => l.split(/\s+/).filter((t) => t.endsWith('.ts') && !t.includes('*')));
    expect(named.length, 'no vitest commands found').toBeGreaterThan(0);
    expect(named.filter((f) => !existsSync(path.join(root, f))), 'test files named in the workflow but missing').toEqual([]);
  });

  it('also runs the project CI entry in job "test"', () => {
    const test = list(obj(jobs.test, 'job "test"').steps, 'job test steps');
    expect(test.some((s) => isObj(s) && String(s.run ?? '').includes('bash .ci/run')), 'job test does not run bash .ci/run').toBe(true);
  });
});
