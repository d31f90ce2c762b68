import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allParts } from './generate';
import { mergeOpenApi, type OpenApiDocument } from './merge';

// The parts are committed (production has no TypeScript tooling to make them): a changed shape, rule or route must
// come with `npm run openapi`.
describe('the committed API document', () => {
  const fresh = allParts();

  it.each(Object.keys(fresh))('%s matches what the contracts generate (else run `npm run openapi`)', (service) => {
    const committed = JSON.parse(readFileSync(path.join(__dirname, '../../openapi', `${service}.json`), 'utf8')) as unknown;
    expect(committed).toEqual(fresh[service as keyof typeof fresh]);
  });

  it('merges without a path in two services or a schema defined two ways', () => {
    const merged = mergeOpenApi(Object.values(fresh));
    expect(merged.paths['/api/webhook']?.post).toBeDefined();
    expect(merged.paths['/api/twilio/webhooks']?.post).toBeDefined();
    expect(merged.paths['/api/users/{id}']?.patch).toBeDefined();
  });

  it('refuses parts that disagree', () => {
    const part = (schema: Record<string, unknown>): OpenApiDocument => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { A: schema } } });
    expect(() => mergeOpenApi([part({ type: 'string' }), part({ type: 'number' })])).toThrow('schema A differently');
    const withPath = fresh['svc-email'];
    expect(() => mergeOpenApi([withPath, withPath])).toThrow('is in two parts');
  });

  it('documents the rules of the yup schemas and the fields of the types', () => {
    const email = fresh['svc-email'];
    const body = (email.paths['/api/webhook-integrations']!.post as { requestBody: { content: Record<string, { schema: { properties: Record<string, { minimum?: number; maximum?: number }>; required: string[] } }> } }).requestBody.content['application/json']!.schema;
    expect(body.properties.reminder_delay).toMatchObject({ minimum: 1, maximum: 720 });
    expect(body.required).toEqual(['name', 'funnel_id']);
    expect(email.components.schemas.Contact).toMatchObject({ required: expect.arrayContaining(['id', 'contact_id', 'email', 'status']) });
  });
});
