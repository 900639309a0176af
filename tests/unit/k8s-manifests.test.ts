/**
 * The Kubernetes manifests: the committed base is what k8s/generate.ts builds from k8s/spec.ts,
 * every overlay renders (k8s/kustomize.ts) into objects that validate against the Kubernetes and
 * KEDA schemas, and every worker in workers/ has a Deployment, a scaler, probes and a grace
 * period that covers its jobs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { renderBase } from '../../k8s/generate.ts';
import { renderKustomization, splitImage, strategicMerge, type K8sObject } from '../../k8s/kustomize.ts';
import { QUEUE_PREFIX, WORKLOAD_LABEL } from '../../k8s/manifests.ts';
import { SHUTDOWN_MARGIN_SECONDS, WORKERS } from '../../k8s/spec.ts';
import { ALL_WORKERS, WORKER_NAMES } from '../../workers/index.ts';

const K8S = path.resolve(import.meta.dirname, '../../k8s');
const OVERLAYS = readdirSync(path.join(K8S, 'overlays'));

/** A schema-checked model per kind Quarry uses; a kind without one fails the test. */
const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap, 'v1/PersistentVolumeClaim': PersistentVolumeClaim, 'v1/Service': Service, 'v1/Namespace': Namespace, 'v1/Secret': Secret,
  'apps/v1/Deployment': Deployment, 'apps/v1/StatefulSet': StatefulSet, 'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget, 'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy, 'batch/v1/CronJob': CronJob,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

type Container = { args?: string[]; env?: { name: string; value?: string }[]; livenessProbe?: unknown; readinessProbe?: unknown; resources?: { requests?: object; limits?: object } };
type PodSpec = { terminationGracePeriodSeconds?: number; containers: Container[] };
const podSpec = (o: K8sObject) => ((o.spec as { template: { spec: PodSpec } }).template.spec);
const find = (objs: K8sObject[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);

describe('k8s base', () => {
  it('is exactly what k8s/generate.ts builds from k8s/spec.ts (run `npm run k8s:generate` after editing them)', () => {
    for (const [file, text] of Object.entries(renderBase())) expect(readFileSync(path.join(K8S, 'base', file), 'utf8'), file).toBe(text);
    expect(readdirSync(path.join(K8S, 'base')).sort()).toEqual(Object.keys(renderBase()).sort());
  });

  it('has a spec for every worker in workers/, consuming that worker’s queue', () => {
    expect(Object.keys(WORKERS).sort()).toEqual([...WORKER_NAMES].sort());
    for (const name of WORKER_NAMES) expect(WORKERS[name].queue, name).toBe(ALL_WORKERS[name].queue.name);
  });
});

describe.each(OVERLAYS)('k8s overlay %s', (overlay) => {
  const objects = renderKustomization(path.join(K8S, 'overlays', overlay));

  it('renders objects that validate against the Kubernetes and KEDA schemas', () => {
    expect(objects.length).toBeGreaterThan(40);
    for (const o of objects) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect(Model, `no schema for ${o.apiVersion} ${o.kind}`).toBeDefined();
      expect(() => new (Model as NonNullable<typeof Model>)(o as never).validate(), `${o.kind}/${o.metadata.name}`).not.toThrow();
      if (o.kind !== 'Namespace') expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toMatch(/^quarry/);
    }
    const ids = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(new Set(ids).size, 'duplicate objects').toBe(ids.length);
  });

  it.each([...WORKER_NAMES])('worker %s: Deployment, scaler on its queue, probes, resources, a grace period above its jobs', (name) => {
    const deployment = find(objects, 'Deployment', `quarry-worker-${name}`);
    expect(deployment).toBeDefined();
    const pod = podSpec(deployment as K8sObject);
    const container = pod.containers[0] as Container;
    expect(container.args).toEqual(['workers', 'start', '--only', name]);
    expect(container.livenessProbe).toMatchObject({ httpGet: { path: '/healthz' } });
    expect(container.readinessProbe).toMatchObject({ httpGet: { path: '/readyz' } });
    expect(container.resources?.requests).toBeDefined();
    expect(container.resources?.limits).toBeDefined();
    const graceMs = Number(container.env?.find((e) => e.name === 'WORKER_SHUTDOWN_GRACE_MS')?.value);
    expect(graceMs / 1000).toBeGreaterThanOrEqual(WORKERS[name].jobSeconds);
    expect(pod.terminationGracePeriodSeconds).toBe(graceMs / 1000 + SHUTDOWN_MARGIN_SECONDS);

    const scaler = find(objects, 'ScaledObject', `quarry-worker-${name}`) as K8sObject;
    const spec = scaler.spec as { scaleTargetRef: { name: string }; minReplicaCount: number; triggers: { type: string; metadata: { listName: string } }[] };
    expect(spec.scaleTargetRef.name).toBe(`quarry-worker-${name}`);
    // Delayed retries and scheduled jobs are only promoted by a running worker.
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    const queue = ALL_WORKERS[name].queue.name;
    expect(spec.triggers.map((t) => t.metadata.listName).sort()).toEqual([`${QUEUE_PREFIX}:${queue}:active`, `${QUEUE_PREFIX}:${queue}:wait`]);
    expect(find(objects, 'PodDisruptionBudget', `quarry-worker-${name}`)).toBeDefined();
  });

  it('keeps query pods (gateway, agent) and ingest pods (the stages, deletes, the facet rebuild) on different nodes where it can: a soft anti-affinity both ways', () => {
    const template = (name: string) => (find(objects, 'Deployment', name)?.spec as { template: { metadata: { labels: Record<string, string> }; spec: { affinity?: unknown } } }).template;
    const avoided = (name: string) => {
      const terms = (template(name).spec.affinity as { podAntiAffinity?: { preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; podAffinityTerm: { labelSelector: { matchLabels: Record<string, string> }; topologyKey: string } }[] } } | undefined)
        ?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
      return terms.map((t) => `${t.podAffinityTerm.labelSelector.matchLabels[WORKLOAD_LABEL]}@${t.podAffinityTerm.topologyKey}`);
    };
    const workloadOf = (name: string) => template(name).metadata.labels[WORKLOAD_LABEL];
    for (const name of ['quarry-gateway', 'quarry-worker-agent']) {
      expect(workloadOf(name), name).toBe('query');
      expect(avoided(name), name).toEqual(['ingest@kubernetes.io/hostname']);
    }
    for (const stage of ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert', 'delete', 'facet-rebuild']) {
      expect(workloadOf(`quarry-worker-${stage}`), stage).toBe('ingest');
      expect(avoided(`quarry-worker-${stage}`), stage).toEqual(['query@kubernetes.io/hostname']);
    }
    for (const name of ['quarry-worker-memory-update', 'quarry-worker-memory-decay', 'quarry-watcher']) {
      expect(workloadOf(name), name).toBe('background');
      expect(template(name).spec.affinity, name).toBeUndefined();
    }
    // Preferences only: never a required rule, which would leave pods pending on a one-node cluster.
    expect(JSON.stringify(objects)).not.toMatch(/requiredDuringScheduling/);
  });

  it('has the gateway (Deployment, Service, CPU HPA), one watcher, Redis with AOF and noeviction, Weaviate with storage, policies and the decay CronJob', () => {
    expect(find(objects, 'Service', 'quarry-gateway')).toBeDefined();
    expect((find(objects, 'HorizontalPodAutoscaler', 'quarry-gateway')?.spec as { metrics: { resource: { name: string } }[] }).metrics[0]?.resource.name).toBe('cpu');
    const watcher = find(objects, 'Deployment', 'quarry-watcher')?.spec as { replicas: number; strategy: { type: string } };
    expect(watcher).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
    const redis = podSpec(find(objects, 'StatefulSet', 'quarry-redis') as K8sObject).containers[0]?.args?.join(' ');
    expect(redis).toMatch(/--appendonly yes/);
    expect(redis).toMatch(/--maxmemory-policy noeviction/);
    expect((find(objects, 'StatefulSet', 'quarry-weaviate')?.spec as { volumeClaimTemplates: unknown[] }).volumeClaimTemplates).toHaveLength(1);
    expect(find(objects, 'NetworkPolicy', 'quarry-default-deny')?.spec).toMatchObject({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    expect(podSpec({ ...(find(objects, 'CronJob', 'quarry-memory-decay') as K8sObject), spec: (find(objects, 'CronJob', 'quarry-memory-decay')?.spec as { jobTemplate: { spec: unknown } }).jobTemplate.spec }).containers[0]?.args).toEqual(['memory', 'decay']);
  });
});

describe('k8s/kustomize.ts', () => {
  it('merges maps, merges named list items by name, and replaces other lists', () => {
    const base = { spec: { replicas: 1, containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }] }, { name: 'b' }], args: ['1', '2'] } };
    const patch = { spec: { containers: [{ name: 'a', env: [{ name: 'B', value: '2' }] }, { name: 'c' }], args: ['3'] } };
    expect(strategicMerge(base, patch)).toEqual({
      spec: { replicas: 1, containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }, { name: 'b' }, { name: 'c' }], args: ['3'] },
    });
    expect(() => strategicMerge(base, { spec: { $patch: 'delete' } })).toThrow(/not supported/);
  });

  it('reads image names with registry ports', () => {
    expect(splitImage('registry:5000/quarry/quarry:1.2')).toEqual({ name: 'registry:5000/quarry/quarry', tag: '1.2' });
    expect(splitImage('registry:5000/quarry/quarry')).toEqual({ name: 'registry:5000/quarry/quarry', tag: null });
    expect(splitImage('redis:7.2-alpine')).toEqual({ name: 'redis', tag: '7.2-alpine' });
  });
});
