import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import email from '@act/contracts/openapi/svc-email.json';
import sms from '@act/contracts/openapi/svc-sms.json';
import type { OpenApiDocument } from '@act/contracts/src/openapi/merge';
import { requestBodyErrors } from '@act/testing/openapi-check';
import { ADAPTERS } from './adapters';

// The API document describes what the adapters accept: every header a sender signs with, every fixture and sample
// body. A sender added or a header renamed here without the document following fails.
const WEBHOOKS: [string, OpenApiDocument][] = [
  ['/api/webhook', email as OpenApiDocument],
  ['/api/webhook/i/{key}', email as OpenApiDocument],
  ['/api/sms/webhook', sms as OpenApiDocument],
  ['/api/sms/webhook/i/{key}', sms as OpenApiDocument],
];
const SAMPLE = { email: 'jane@example.com', phone: '+14155550123', firstName: 'Jane', funnelId: 'f-1', nonce: 'n1' };

const documentedHeaders = (doc: OpenApiDocument, p: string) =>
  ((doc.paths[p]!.post as { parameters: { name: string; in: string }[] }).parameters ?? []).filter((x) => x.in === 'header').map((x) => x.name.toLowerCase());

describe.each(WEBHOOKS)('the API document of POST %s', (p, doc) => {
  it.each(Object.values(ADAPTERS).map((a) => [a.id, a] as const))('names every header %s sends', (_id, adapter) => {
    const sample = adapter.sample(SAMPLE);
    const raw = Buffer.from(JSON.stringify(sample.body));
    const sent = [...Object.keys(sample.headers), ...Object.keys(adapter.sign(raw, 'a-secret-of-sixteen+'))].map((h) => h.toLowerCase());
    // ClickFunnels Classic does not sign: it sends none of its own.
    if (adapter.id !== 'clickfunnels_classic') expect(sent.length).toBeGreaterThan(0);
    expect(documentedHeaders(doc, p)).toEqual(expect.arrayContaining(sent));
  });

  it.each(Object.values(ADAPTERS).map((a) => [a.id, a] as const))('accepts the body of a %s sample', (_id, adapter) => {
    expect(requestBodyErrors(doc, 'post', p, adapter.sample(SAMPLE).body)).toEqual([]);
  });

  const fixtures = ['clickfunnels2', 'clickfunnels-classic', 'shopify', 'stripe', 'woocommerce'].flatMap((sender) =>
    readdirSync(path.join(__dirname, sender, 'fixtures'))
      .filter((f) => f.endsWith('.json') && !f.startsWith('malformed'))
      .map((f) => [`${sender}/${f}`, path.join(__dirname, sender, 'fixtures', f)] as const),
  );
  it.each(fixtures)('accepts the fixture %s', (_name, file) => {
    expect(requestBodyErrors(doc, 'post', p, JSON.parse(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('refuses a body that is no sender\'s', () => {
    expect(requestBodyErrors(doc, 'post', p, { hello: 'world' })).not.toEqual([]);
  });
});
