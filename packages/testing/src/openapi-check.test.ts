import auth from '@act/contracts/openapi/svc-auth.json';
import email from '@act/contracts/openapi/svc-email.json';
import sms from '@act/contracts/openapi/svc-sms.json';
import { mergeOpenApi, type OpenApiDocument } from '@act/contracts/src/openapi/merge';
import { createResponseChecker, type RecordedResponse } from './openapi-check';

const doc = mergeOpenApi([auth, email, sms] as OpenApiDocument[]);
const { check } = createResponseChecker(doc);
const json = (method: string, path: string, status: number, body: unknown): RecordedResponse => ({
  method,
  path,
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});
const contact = {
  id: 7,
  contact_id: 'c-7',
  email: 'a@example.com',
  created_at: '2026-01-01T00:00:00.000Z',
  remind_at: '2026-01-01T00:30:00.000Z',
  purchased_at: null,
  status: 'pending',
  integration_id: 1,
  cart: null,
  reminders_held: null,
  unsubscribed: false,
};

describe('checking recorded answers against the API document', () => {
  it('accepts answers of the documented shapes, lists and pages alike', () => {
    const result = check([
      json('GET', '/api/contacts', 200, [contact]),
      json('GET', '/api/contacts', 200, { items: [contact], total: 1, page: 1, pageSize: 25, tests: 0 }),
      json('GET', '/api/user', 200, { authenticated: false }),
      json('POST', '/api/webhook', 400, { error: 'Invalid JSON' }),
    ]);
    expect(result).toEqual({ checked: 4, failures: [], unlisted: [] });
  });

  it('fails a field of the wrong type, a missing field and an error without its message', () => {
    const result = check([
      json('GET', '/api/contacts', 200, [{ ...contact, id: '7' }]),
      json('GET', '/api/contacts', 200, [{ ...contact, status: undefined }]),
      json('POST', '/api/webhook', 400, { message: 'no error field' }),
    ]);
    expect(result.failures).toHaveLength(3);
    expect(result.failures[0]).toContain('/0/id must be number');
  });

  it('fails a status the document does not name, and only lists unnamed server failures', () => {
    const result = check([
      json('GET', '/api/sms-logs', 201, []),
      json('GET', '/api/sms-logs', 418, { error: 'teapot' }),
      json('GET', '/api/sms-logs', 503, { error: 'Service unavailable' }),
    ]);
    expect(result.failures).toEqual([
      expect.stringContaining('GET /api/sms-logs → 201: status not in the document'),
      expect.stringContaining('GET /api/sms-logs → 418: status not in the document'),
    ]);
    expect(result.unlisted).toEqual([expect.stringContaining('GET /api/sms-logs → 503')]);
  });

  it('matches fixed path segments before parameters', () => {
    const { operationFor } = createResponseChecker(doc);
    expect(operationFor('GET', '/api/resend/templates/campaign/3')?.template).toBe('/api/resend/templates/campaign/{campaignId}');
    expect(operationFor('POST', '/api/webhook/i/abc')?.template).toBe('/api/webhook/i/{key}');
  });
});
