#!/usr/bin/env node
// Renders every kustomization under infra/k8s (base and each overlay) with `kubectl kustomize`, offline, and checks
// each object it produces:
//   - against the Kubernetes OpenAPI schemas of its apiVersion and kind (kubernetes-models' validate());
//   - against what running this product needs: probes on /readyz and /healthz, resource requests, the metrics port
//     declared and annotated, Services and budgets selecting pods that exist, references to a ConfigMap that the
//     render contains, HPAs scaling a Deployment that exists.
// Also validates the extra manifests (secret.example.yaml). Prints one line per object and exits 1 on any error.
//   node infra/k8s/validate.mjs                 all kustomizations
//   node infra/k8s/validate.mjs <dir|file.yaml> only these (a directory is rendered, a file read as it is)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const K8S = path.dirname(fileURLToPath(import.meta.url));

/** `apps/v1` -> kubernetes-models/apps/v1; `v1` -> kubernetes-models/v1. */
async function modelFor(apiVersion, kind) {
  let mod;
  try {
    mod = await import(`kubernetes-models/${apiVersion}`);
  } catch {
    return null;
  }
  return mod[kind] ?? null;
}

function render(dir) {
  try {
    return execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if (err.code === 'ENOENT') throw new Error('kubectl is not installed: it renders the kustomizations (kubectl kustomize)');
    throw new Error(`kubectl kustomize ${path.relative(process.cwd(), dir)} failed: ${err.stderr || err.message}`);
  }
}

function objectsOf(text, where) {
  const docs = parseAllDocuments(text);
  const out = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`${where}: ${doc.errors[0].message}`);
    const obj = doc.toJS();
    if (obj) out.push(obj);
  }
  return out;
}

const labelsMatch = (selector, labels) => Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);

/** What this product's objects must say beyond the schema; returns messages. */
function productChecks(obj, all) {
  const errors = [];
  const { kind, metadata = {} } = obj;
  if (kind === 'Deployment') {
    const pod = obj.spec.template;
    for (const c of pod.spec.containers) {
      if (c.readinessProbe?.httpGet?.path !== '/readyz') errors.push(`container ${c.name}: readinessProbe must GET /readyz`);
      if (c.livenessProbe?.httpGet?.path !== '/healthz') errors.push(`container ${c.name}: livenessProbe must GET /healthz`);
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory) errors.push(`container ${c.name}: cpu and memory requests are required (the HPA divides by them)`);
      const metricsPort = pod.metadata?.annotations?.['prometheus.io/port'];
      if (!metricsPort || !(c.ports ?? []).some((p) => String(p.containerPort) === metricsPort))
        errors.push(`container ${c.name}: prometheus.io/port must name one of its container ports`);
      for (const from of c.envFrom ?? []) {
        const name = from.configMapRef?.name;
        if (name && !all.some((o) => o.kind === 'ConfigMap' && o.metadata.name === name)) errors.push(`container ${c.name}: ConfigMap ${name} is not in the render`);
      }
    }
    if (!labelsMatch(obj.spec.selector.matchLabels, pod.metadata?.labels)) errors.push('spec.selector does not match the pod labels');
  }
  if (kind === 'Service' || kind === 'PodDisruptionBudget') {
    const selector = kind === 'Service' ? obj.spec.selector : obj.spec.selector?.matchLabels;
    const pods = all.filter((o) => o.kind === 'Deployment' && labelsMatch(selector, o.spec.template.metadata?.labels));
    if (pods.length === 0) errors.push(`selects no Deployment's pods (${JSON.stringify(selector)})`);
  }
  if (kind === 'HorizontalPodAutoscaler') {
    const target = obj.spec.scaleTargetRef;
    const dep = all.find((o) => o.kind === target.kind && o.metadata.name === target.name);
    if (!dep) errors.push(`scales ${target.kind} ${target.name}, which is not in the render`);
    else if (obj.spec.minReplicas > (dep.spec.replicas ?? 1) && dep.spec.replicas !== undefined)
      errors.push(`minReplicas ${obj.spec.minReplicas} above the Deployment's ${dep.spec.replicas}`);
  }
  if (kind === 'Ingress') {
    for (const rule of obj.spec.rules ?? [])
      for (const p of rule.http?.paths ?? []) {
        const name = p.backend.service?.name;
        if (!all.some((o) => o.kind === 'Service' && o.metadata.name === name)) errors.push(`backend Service ${name} is not in the render`);
      }
  }
  if (!metadata.name) errors.push('metadata.name is missing');
  return errors;
}

async function check(objects, where) {
  let failed = 0;
  for (const obj of objects) {
    const id = `${where}: ${obj.kind ?? '?'} ${obj.metadata?.name ?? '?'}`;
    const errors = [];
    const Model = obj.apiVersion && obj.kind ? await modelFor(obj.apiVersion, obj.kind) : null;
    if (!Model) errors.push(`no Kubernetes schema for apiVersion ${obj.apiVersion} kind ${obj.kind}`);
    else {
      try {
        new Model(obj).validate();
      } catch (err) {
        errors.push(`schema: ${err.message}`);
      }
    }
    errors.push(...productChecks(obj, objects));
    if (errors.length) {
      failed += 1;
      console.log(`FAIL ${id}\n  - ${errors.join('\n  - ')}`);
    } else console.log(`ok   ${id}`);
  }
  return failed;
}

function kustomizations() {
  const dirs = [path.join(K8S, 'base')];
  const overlays = path.join(K8S, 'overlays');
  for (const name of readdirSync(overlays)) if (existsSync(path.join(overlays, name, 'kustomization.yaml'))) dirs.push(path.join(overlays, name));
  return dirs;
}

const targets = process.argv.slice(2).map((a) => path.resolve(a));
let failed = 0;
let count = 0;
try {
  const items = targets.length ? targets : [...kustomizations(), path.join(K8S, 'secret.example.yaml')];
  for (const item of items) {
    const where = path.relative(path.dirname(K8S), item) || item;
    const text = statSync(item).isDirectory() ? render(item) : readFileSync(item, 'utf8');
    const objects = objectsOf(text, where);
    if (objects.length === 0) throw new Error(`${where}: no objects`);
    count += objects.length;
    failed += await check(objects, where);
  }
} catch (err) {
  console.error(`[k8s] ${err.message}`);
  process.exit(2);
}
console.log(`[k8s] ${count} objects, ${failed} with errors`);
process.exit(failed ? 1 : 0);
