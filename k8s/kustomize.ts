/**
 * A small, strict kustomize: enough to render Quarry's base and overlays without the kustomize
 * binary (which this project cannot download), and to refuse anything it does not implement
 * rather than render it wrongly. Supported kustomization keys: resources (files and
 * directories), namespace, labels, images, replicas, patches (strategic-merge files or inline),
 * secretGenerator and configMapGenerator (literals, with disableNameSuffixHash).
 *
 *   npm run k8s:render -- k8s/overlays/prod     # prints the rendered YAML stream
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';

export type K8sObject = Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Kinds the namespace transformer leaves alone. */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume', 'StorageClass']);

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'replicas', 'patches', 'secretGenerator', 'configMapGenerator', 'generatorOptions']);

/** Strategic merge as kustomize does it for the shapes Quarry uses: maps merge, lists of named items merge by name, other lists are replaced. */
export function strategicMerge(base: unknown, patch: unknown): unknown {
  if (isObject(base) && isObject(patch)) {
    const out: Json = { ...base };
    for (const [k, v] of Object.entries(patch)) {
      if (k.startsWith('$')) throw new Error(`patch directive ${k} is not supported`);
      out[k] = k in base ? strategicMerge(base[k], v) : v;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(patch) && patch.every((p) => isObject(p) && typeof p.name === 'string') && base.every((b) => isObject(b) && typeof b.name === 'string')) {
    const out = base.map((b) => {
      const p = patch.find((x) => (x as Json).name === (b as Json).name);
      return p ? strategicMerge(b, p) : b;
    });
    for (const p of patch) if (!base.some((b) => (b as Json).name === (p as Json).name)) out.push(p);
    return out;
  }
  return patch;
}

function readYamlDocs(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors[0]?.message}`);
    return d.toJSON() as K8sObject;
  }).filter((o) => o !== null);
}

function generated(kind: 'Secret' | 'ConfigMap', g: Json, options: Json): K8sObject {
  if (options.disableNameSuffixHash !== true) throw new Error(`${kind} generator ${String(g.name)}: set generatorOptions.disableNameSuffixHash: true (name hashes are not implemented)`);
  const unknown = Object.keys(g).filter((k) => !['name', 'literals', 'type'].includes(k));
  if (unknown.length) throw new Error(`${kind} generator ${String(g.name)}: unsupported keys ${unknown.join(', ')}`);
  const data = Object.fromEntries(((g.literals as string[] | undefined) ?? []).map((l) => {
    const i = l.indexOf('=');
    if (i < 1) throw new Error(`${kind} generator ${String(g.name)}: literal "${l}" is not KEY=value`);
    return [l.slice(0, i), l.slice(i + 1)];
  }));
  return kind === 'Secret'
    ? { apiVersion: 'v1', kind, metadata: { name: String(g.name) }, type: String(g.type ?? 'Opaque'), stringData: data }
    : { apiVersion: 'v1', kind, metadata: { name: String(g.name) }, data };
}

/** `registry:5000/a/b:tag` → name `registry:5000/a/b`, tag `tag` (a colon before the last slash is a port). */
export function splitImage(image: string): { name: string; tag: string | null } {
  const colon = image.lastIndexOf(':');
  return colon > image.lastIndexOf('/') ? { name: image.slice(0, colon), tag: image.slice(colon + 1) } : { name: image, tag: null };
}

function setImage(obj: Json, images: { name: string; newName?: string; newTag?: string }[]): void {
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'image' && typeof v === 'string') {
      const { name, tag } = splitImage(v);
      const rule = images.find((i) => i.name === name);
      const newTag = rule?.newTag ?? tag;
      if (rule) obj[k] = `${rule.newName ?? name}${newTag ? `:${newTag}` : ''}`;
    } else if (isObject(v)) setImage(v, images);
    else if (Array.isArray(v)) for (const x of v) if (isObject(x)) setImage(x, images);
  }
}

/** Renders the kustomization in `dir` into objects, in resource order. */
export function renderKustomization(dir: string): K8sObject[] {
  const file = path.join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir}: no kustomization.yaml`);
  const k = parse(readFileSync(file, 'utf8')) as Json;
  const unknown = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unknown.length) throw new Error(`${file}: unsupported keys ${unknown.join(', ')}`);

  let objects: K8sObject[] = [];
  for (const r of (k.resources as string[] | undefined) ?? []) {
    const p = path.resolve(dir, r);
    objects.push(...(statSync(p).isDirectory() ? renderKustomization(p) : readYamlDocs(p)));
  }
  const options = (k.generatorOptions as Json | undefined) ?? {};
  for (const g of (k.secretGenerator as Json[] | undefined) ?? []) objects.push(generated('Secret', g, options));
  for (const g of (k.configMapGenerator as Json[] | undefined) ?? []) objects.push(generated('ConfigMap', g, options));

  for (const p of (k.patches as Json[] | undefined) ?? []) {
    if (p.target !== undefined) throw new Error(`${file}: patch targets are not supported; name the object in the patch itself`);
    const patches = typeof p.path === 'string' ? readYamlDocs(path.resolve(dir, p.path)) : [parse(String(p.patch)) as K8sObject];
    for (const patch of patches) {
      const i = objects.findIndex((o) => o.kind === patch.kind && o.metadata.name === patch.metadata?.name);
      if (i < 0) throw new Error(`${file}: patch for ${patch.kind}/${patch.metadata?.name} matches no resource`);
      objects[i] = strategicMerge(objects[i], patch) as K8sObject;
    }
  }
  for (const r of (k.replicas as { name: string; count: number }[] | undefined) ?? []) {
    const o = objects.find((x) => x.metadata.name === r.name && isObject(x.spec) && 'replicas' in x.spec);
    if (!o) throw new Error(`${file}: replicas for ${r.name} matches no workload`);
    (o.spec as Json).replicas = r.count;
  }
  const images = (k.images as { name: string; newName?: string; newTag?: string }[] | undefined) ?? [];
  if (images.length) for (const o of objects) setImage(o, images);
  for (const l of (k.labels as { pairs: Record<string, string>; includeSelectors?: boolean }[] | undefined) ?? []) {
    if (l.includeSelectors) throw new Error(`${file}: labels.includeSelectors is not supported (selectors are immutable)`);
    objects = objects.map((o) => ({ ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, ...l.pairs } } }));
  }
  if (typeof k.namespace === 'string') {
    const ns = k.namespace;
    objects = objects.map((o) => (CLUSTER_SCOPED.has(o.kind) ? o : { ...o, metadata: { ...o.metadata, namespace: ns } }));
  }
  return objects;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: npm run k8s:render -- <kustomization dir>\n');
    process.exit(2);
  }
  process.stdout.write(renderKustomization(path.resolve(dir)).map((o) => stringify(o, { lineWidth: 0 })).join('---\n'));
}
