import { parseFunnelWebhook } from './parse';

describe('parseFunnelWebhook', () => {
  it('reads the new format, with funnel_id at the top or inside contact', () => {
    expect(parseFunnelWebhook({ event: 'contact_created', funnel_id: 'summer', contact: { id: 'c-1', email: 'jane@example.com', phone: '+1 555 123 4567', first_name: 'Jane' } })).toEqual({
      ok: true,
      event: { kind: 'contact_created', funnelId: 'summer', contactId: 'c-1', email: 'jane@example.com', phone: '+1 555 123 4567', firstName: 'Jane' },
    });
    const r = parseFunnelWebhook({ event: 'contact_updated', contact: { id: 7, email: 'a@b.co', funnel_id: 'f' } });
    expect(r).toMatchObject({ ok: true, event: { kind: 'contact_updated', funnelId: 'f', contactId: '7', phone: null } });
  });

  it('reads the legacy contact_created and purchase_created formats', () => {
    expect(parseFunnelWebhook({ event_type: 'contact_created', funnel_id: 's', contact_id: 'c-1', email: 'j@e.com', phone: '+15551234567' })).toMatchObject({
      ok: true,
      event: { kind: 'contact_created', funnelId: 's', contactId: 'c-1', email: 'j@e.com', phone: '+15551234567' },
    });
    expect(parseFunnelWebhook({ event_type: 'purchase_created', funnel_id: 's', contact_id: 'c-1', email: 'j@e.com', amount: 49.0, currency: 'USD' })).toEqual({
      ok: true,
      event: { kind: 'purchase_created', funnelId: 's', contactId: 'c-1', email: 'j@e.com', phone: null, amount: 49, currency: 'USD' },
    });
  });

  it('reads a new-format purchase with a purchase object and no email', () => {
    expect(parseFunnelWebhook({ event: 'purchase_created', contact: { id: 'c-9' }, purchase: { amount: '12.5', currency: 'EUR' } })).toMatchObject({
      ok: true,
      event: { kind: 'purchase_created', funnelId: null, contactId: 'c-9', email: null, amount: 12.5, currency: 'EUR' },
    });
  });

  it('accepts the handshake in both spellings', () => {
    expect(parseFunnelWebhook({ event: 'handshake' })).toEqual({ ok: true, event: { kind: 'handshake' } });
    expect(parseFunnelWebhook({ event_type: 'handshake' })).toEqual({ ok: true, event: { kind: 'handshake' } });
  });

  it.each([
    [undefined, 'Invalid JSON body', 'Invalid JSON body'],
    [[1, 2], undefined, 'Request body must be a JSON object'],
    ['text', undefined, 'Request body must be a JSON object'],
    [{}, undefined, 'Missing event type (event or event_type)'],
    [{ event: 5 }, undefined, 'Event type must be a string'],
    [{ event: 'order_refunded' }, undefined, 'Unknown event type: order_refunded'],
    [{ event: 'contact_created', contact: { email: 'a@b.co' } }, undefined, 'contact_id is required'],
    [{ event: 'contact_created', contact: { id: { $gt: '' }, email: 'a@b.co' } }, undefined, 'contact_id must be a string or a number'],
    [{ event: 'contact_created', contact: { id: 'c' } }, undefined, 'email is required for contact_created'],
    [{ event: 'contact_created', contact: { id: 'c', email: 'not-an-email' } }, undefined, 'Invalid email address'],
    [{ event: 'contact_created', contact: { id: 'c', email: { $ne: null } } }, undefined, 'email must be a string'],
    [{ event: 'contact_created', contact: 'c-1' }, undefined, 'contact must be an object'],
    [{ event_type: 'contact_created', funnel_id: ['x'], contact_id: 'c', email: 'a@b.co' }, undefined, 'funnel_id must be a string or a number'],
    [{ event_type: 'purchase_created', email: 'a@b.co' }, undefined, 'contact_id is required'],
  ])('refuses %j with a clear error', (body, bodyError, error) => {
    expect(parseFunnelWebhook(body, bodyError)).toEqual({ ok: false, error });
  });
});
