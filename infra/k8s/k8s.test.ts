// The Kubernetes manifests: every kustomization renders offline and every object it renders is valid against the
// Kubernetes schemas and the product's own rules (validate.mjs); the overlays say what they promise.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { validateSettings } from '@act/service-kit';
import { gatewaySettings } from '../../gateway/src/config';
import { authSettings } from '../../svc-auth/src/config';
import { emailSettings } from '../../svc-email/src/config';
import { smsSettings } from '../../svc-sms/src/config';

const K8S = __dirname;
const validate = (...args: string[]) => spawnSync(process.execPath, [path.join(K8S, 'validate.mjs'), ...args], { encoding: 'utf8' });

type Obj = { kind: string; metadata: { name: string; namespace?: string }; spec?: Record<string, never> & { replicas?: number; minReplicas?: number; maxReplicas?: number; scaleTargetRef?: { name: string } }; data?: Record<string, string> };
function rendered(overlay: string): Obj[] {
  const text = execFileSync('kubectl', ['kustomize', path.join(K8S, 'overlays', overlay)], { encoding: 'utf8' });
  return parseAllDocuments(text).map((d) => d.toJS() as Obj);
}
const named = (objs: Obj[], kind: string) => objs.filter((o) => o.kind === kind).map((o) => o.metadata.name).sort();
const APPS = ['gateway', 'svc-auth', 'svc-email', 'svc-sms'];
const PROCESS_SETTINGS = { gateway: gatewaySettings, 'svc-auth': authSettings, 'svc-email': emailSettings, 'svc-sms': smsSettings };

describe('infra/k8s', () => {
  it('renders every kustomization and validates every object (schemas and product rules)', () => {
    const run = validate();
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const summary = /\[k8s\] (\d+) objects, 0 with errors/.exec(run.stdout);
    expect(summary).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThanOrEqual(40);
    expect(run.stdout).not.toContain('FAIL');
  });

  it('refuses objects the schemas or the product rules refuse (positive control)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-'));
    const file = path.join(dir, 'broken.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: broken }',
        'spec:',
        '  selector: { matchLabels: { app: broken } }',
        '  template:',
        '    metadata: { labels: { app: other } }',
        '    spec:',
        '      containers:',
        '        - name: c',
        '          image: x',
        '          ports: [{ containerPort: "http" }]',
        '          readinessProbe: { httpGet: { path: /, port: 80 } }',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata: { name: orphan }',
        'spec: { selector: { app: nobody }, ports: [{ port: 80 }] }',
      ].join('\n'),
    );
    const run = validate(file);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('containerPort must be integer');
    expect(run.stdout).toContain('readinessProbe must GET /readyz');
    expect(run.stdout).toContain('livenessProbe must GET /healthz');
    expect(run.stdout).toContain('spec.selector does not match the pod labels');
    expect(run.stdout).toContain('cpu and memory requests are required');
    expect(run.stdout).toMatch(/FAIL .*Service orphan\n {2}- selects no Deployment's pods/);
  });

  it('production: two replicas of the gateway and every service, each with an HPA and a disruption budget', () => {
    const objs = rendered('production');
    const deployments = objs.filter((o) => o.kind === 'Deployment');
    expect(deployments.map((d) => [d.metadata.name, d.spec!.replicas])).toEqual(APPS.map((a) => [a, 2]));
    expect(named(objs, 'HorizontalPodAutoscaler')).toEqual(APPS);
    for (const hpa of objs.filter((o) => o.kind === 'HorizontalPodAutoscaler')) expect(hpa.spec!.minReplicas).toBe(2);
    expect(named(objs, 'PodDisruptionBudget')).toEqual(APPS);
    expect(named(objs, 'Service')).toEqual(APPS);
    expect(new Set(objs.map((o) => o.metadata.namespace ?? 'abandoned-carts'))).toEqual(new Set(['abandoned-carts']));
    const config = objs.find((o) => o.kind === 'ConfigMap')!.data!;
    expect(config).toMatchObject({ GATEWAY_METRICS_PORT: '9464', AUTH_METRICS_PORT: '9465', EMAIL_METRICS_PORT: '9466', SMS_METRICS_PORT: '9467', HOST: '0.0.0.0', NODE_ENV: 'production', EMAIL_LIVE_SENDING: 'true' });
    // Secrets are never in the render: the Secret act-secrets is made by the operator.
    expect(named(objs, 'Secret')).toEqual([]);
  });

  it('single: one replica each, no autoscaler or budget that would block a drain', () => {
    const objs = rendered('single');
    expect(objs.filter((o) => o.kind === 'Deployment').map((d) => d.spec!.replicas)).toEqual([1, 1, 1, 1]);
    expect(named(objs, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(named(objs, 'PodDisruptionBudget')).toEqual([]);
    expect(objs.find((o) => o.kind === 'ConfigMap')!.data!.EMAIL_LIVE_SENDING).toBe('false');
  });

  it('every setting of the rendered ConfigMaps is one the processes declare, valid as a production pod gets it', () => {
    for (const overlay of ['production', 'single']) {
      const config = rendered(overlay).find((o) => o.kind === 'ConfigMap')!.data!;
      // The Secret's keys, as infra/k8s/secret.example.yaml lists them, with placeholder values.
      const secret = { IDENTITY_SECRET: 'x', SESSION_SECRET: 'x', SECRETS_KEY: 'x', MONGODB_URI: 'mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017/?replicaSet=rs0' };
      for (const [name, specs] of Object.entries(PROCESS_SETTINGS)) {
        const own = Object.keys(config).filter((k) => k in specs);
        expect({ overlay, name, values: validateSettings(name, specs, { source: { ...config, ...secret } }) }).toMatchObject({ overlay, name, values: Object.fromEntries(own.map((k) => [k, expect.anything()])) });
      }
      const declared = new Set(Object.values(PROCESS_SETTINGS).flatMap((s) => Object.keys(s)));
      expect(Object.keys(config).filter((k) => !declared.has(k))).toEqual([]);
    }
  });
});
