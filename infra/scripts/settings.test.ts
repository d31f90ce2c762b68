// One validated configuration per process (packages/service-kit/src/settings.ts): .env.example lists exactly the
// settings the four processes declare (and the few read by tools outside them), every setting their code reads is
// declared, and a process started with bad settings or a test switch under NODE_ENV=production stops with one error
// naming each.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serviceSettings, TEST_SWITCHES } from '@act/service-kit';
import { startServiceProcess } from '@act/service-kit/testing';
import { gatewaySettings, GATEWAY_TEST_SWITCHES } from '../../gateway/src/config';
import { authSettings } from '../../svc-auth/src/config';
import { emailSettings, EMAIL_TEST_SWITCHES } from '../../svc-email/src/config';
import { smsSettings, SMS_TEST_SWITCHES } from '../../svc-sms/src/config';

const ROOT = path.resolve(__dirname, '../..');
/** In .env.example, read by tools rather than by the four processes. */
const OUTSIDE_PROCESSES = ['REPLICAS', 'MFE_OUTPUT_DIR', 'MFE_BUILD_LABEL', 'CHROMIUM_PATH'];
const PROCESSES = { gateway: gatewaySettings, 'svc-auth': authSettings, 'svc-email': emailSettings, 'svc-sms': smsSettings };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return ['test', 'fixtures', 'test-tools', 'node_modules'].includes(d.name) ? [] : sources(full);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) && !/testing\.ts$/.test(d.name) ? [full] : [];
  });
}

/** Names the code reads: env('X'), envInt('X'), envBool('X'), process.env.X, process.env['X'], metricsPortEnv: 'X'. */
function settingsRead(dir: string): Set<string> {
  const names = new Set<string>();
  const pattern = /\b(?:env|envInt|envBool)\(\s*'([A-Z][A-Z0-9_]*)'|process\.env\.([A-Z][A-Z0-9_]*)|process\.env\[\s*'([A-Z][A-Z0-9_]*)'\s*\]|metricsPortEnv:\s*'([A-Z][A-Z0-9_]*)'/g;
  for (const file of sources(dir)) for (const m of readFileSync(file, 'utf8').matchAll(pattern)) names.add(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return names;
}

describe('settings', () => {
  it('.env.example lists every declared setting and nothing unknown', () => {
    const listed = [...readFileSync(path.join(ROOT, '.env.example'), 'utf8').matchAll(/^# ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    const declared = new Set([...Object.values(PROCESSES).flatMap((s) => Object.keys(s)), ...OUTSIDE_PROCESSES]);
    expect(listed.filter((n, i) => listed.indexOf(n) !== i)).toEqual([]);
    expect([...new Set(listed)].sort()).toEqual([...declared].sort());
  });

  it.each(Object.entries({ gateway: 'gateway/src', 'svc-auth': 'svc-auth/src', 'svc-email': 'svc-email/src', 'svc-sms': 'svc-sms/src' }))(
    'every setting %s reads is declared in its schema',
    (name, dir) => {
      const declared = Object.keys(PROCESSES[name as keyof typeof PROCESSES]);
      const read = settingsRead(path.join(ROOT, dir));
      expect(read.size).toBeGreaterThanOrEqual(2);
      expect([...read].filter((n) => !declared.includes(n)).sort()).toEqual([]);
    },
  );

  it("every setting service-kit reads is in the services' schemas", () => {
    const declared = { ...serviceSettings, ...authSettings, ...emailSettings, ...smsSettings };
    expect([...settingsRead(path.join(ROOT, 'packages/service-kit/src'))].filter((n) => !(n in declared)).sort()).toEqual([]);
  });

  it('the test switches are declared by the process they belong to, and grouped', () => {
    expect([...GATEWAY_TEST_SWITCHES, ...EMAIL_TEST_SWITCHES, ...SMS_TEST_SWITCHES].sort()).toEqual(Object.keys(TEST_SWITCHES).sort());
    for (const n of GATEWAY_TEST_SWITCHES) expect(gatewaySettings).toHaveProperty(n);
    for (const n of EMAIL_TEST_SWITCHES) expect(emailSettings).toHaveProperty(n);
    for (const n of SMS_TEST_SWITCHES) expect(smsSettings).toHaveProperty(n);
  });

  it('a service with bad settings stops at start, naming every one', async () => {
    const start = startServiceProcess('svc-sms', { NODE_ENV: 'production', IDENTITY_SECRET: '', SECRETS_KEY: 'k', SMS_DUE_BURST: 'many', MONGODB_URI: 'localhost:27017', TWILIO_BASE_URL: 'http://127.0.0.1:9' });
    const err = await start.then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain('exited with 1 before listening');
    expect(err?.message).toContain(
      [
        'svc-sms: invalid configuration:',
        '  - IDENTITY_SECRET is required in production',
        '  - MONGODB_URI: must be a mongodb:// or mongodb+srv:// connection string',
        '  - SMS_DUE_BURST: must be a whole number of at least 1, got "many"',
        '  - TWILIO_BASE_URL is a test-only switch (svc-sms: every Twilio API host redirected to this origin (a local fake)): not allowed with NODE_ENV=production',
      ].join('\n'),
    );
  });

  it('the gateway refuses API_RECORD_FILE in production', async () => {
    const err = await startServiceProcess('gateway', { NODE_ENV: 'production', IDENTITY_SECRET: 's', API_RECORD_FILE: '/tmp/never' }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain('gateway: invalid configuration:\n  - API_RECORD_FILE is a test-only switch');
  });
});
