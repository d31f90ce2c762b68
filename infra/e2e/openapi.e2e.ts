// The API document against the running stack: the gateway serves the services' parts merged, publicly; every route
// the three services registered is in it (the route walk: a route added without its entry in
// packages/contracts/src/openapi/operations.ts fails here); every schema compiles as JSON Schema 2020-12.
// (The answers this suite records are checked against the document by the phase's teardown: infra/e2e/contract.)
import type { OpenApiDocument } from '@act/contracts/src/openapi/merge';
import { readStack } from './stack';
import { signIdentity } from './hostile/client';
import { compileDocumentSchemas } from '@act/testing/openapi-check';

const SERVICES = ['svc-auth', 'svc-email', 'svc-sms'] as const;
type Op = { parameters?: { name: string; in: string }[]; security?: unknown[]; requestBody?: { content: Record<string, { examples?: Record<string, unknown> }> } };

let doc: OpenApiDocument;

beforeAll(async () => {
  const res = await fetch(`${readStack().url}/api/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  doc = (await res.json()) as OpenApiDocument;
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the whole /api, served without signing in', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const [path, method] of [
      ['/api/webhook', 'post'],
      ['/api/webhook/i/{key}', 'post'],
      ['/api/sms/webhook', 'post'],
      ['/api/twilio/webhooks', 'post'],
      ['/api/resend/webhooks', 'post'],
      ['/api/unsubscribe', 'get'],
      ['/api/unsubscribe/one-click', 'post'],
      ['/api/login', 'post'],
      ['/api/users/{id}', 'delete'],
      ['/api/sms-contacts', 'get'],
    ] as const)
      expect(doc.paths[path]?.[method]).toBeDefined();
  });

  it('names every accepted sender\'s signature headers and body examples on the funnel webhooks, and no session for them', () => {
    for (const path of ['/api/webhook', '/api/sms/webhook']) {
      const op = doc.paths[path]!.post as Op;
      const headers = (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
      expect(headers).toEqual(expect.arrayContaining(['X-Signature', 'X-Webhook-ClickFunnels-Signature', 'X-Shopify-Hmac-Sha256', 'X-Shopify-Topic']));
      expect(op.security).toEqual([]);
      const examples = Object.keys(op.requestBody!.content['application/json']!.examples ?? {});
      for (const sender of ['generic', 'clickfunnels2', 'clickfunnels-classic', 'shopify']) expect(examples.some((e) => e.startsWith(`${sender}:`))).toBe(true);
    }
    expect((doc.paths['/api/twilio/webhooks']!.post as Op).parameters?.map((p) => p.name)).toContain('X-Twilio-Signature');
    expect((doc.paths['/api/resend/webhooks']!.post as Op).parameters?.map((p) => p.name)).toEqual(['svix-id', 'svix-timestamp', 'svix-signature']);
  });

  it('has schemas that compile as JSON Schema 2020-12', () => {
    expect(compileDocumentSchemas(doc)).toBeGreaterThan(40);
  });
});

describe('the route walk', () => {
  it.each(SERVICES)('every /api route %s registered is in the document', async (service) => {
    const stack = readStack();
    const res = await fetch(`http://127.0.0.1:${stack.ports[service]}/internal/routes`, {
      headers: { 'x-act-identity': signIdentity(null, process.env.IDENTITY_SECRET!) },
    });
    expect(res.status).toBe(200);
    const { routes } = (await res.json()) as { routes: { method: string; path: string }[] };
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const missing = routes.filter((r) => !doc.paths[r.path]?.[r.method]).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('refuses the route list to a call without the gateway\'s identity', async () => {
    const res = await fetch(`http://127.0.0.1:${readStack().ports['svc-email']}/internal/routes`);
    expect(res.status).toBe(401);
  });
});
