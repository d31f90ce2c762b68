import { parseFunnelWebhook } from './parse';

describe('funnel webhook formats (docs/webhooks.md)', () => {
  it('reads the new format', () => {
    const p = parseFunnelWebhook({
      event: 'contact_created',
      funnel_id: 'summer-sale',
      contact: { id: 'c-1001', email: 'jane@example.com', phone: '+1 555 123 4567', first_name: 'Jane' },
    });
    expect(p).toMatchObject({
      kind: 'contact',
      event: 'contact_created',
      funnelId: 'summer-sale',
      contactId: 'c-1001',
      email: 'jane@example.com',
      phone: '+1 555 123 4567',
      firstName: 'Jane',
    });
  });
  it('takes funnel_id from inside contact', () => {
    expect(
      parseFunnelWebhook({ event: 'contact_updated', contact: { id: 7, funnel_id: 'f', phone: '5551234567' } }),
    ).toMatchObject({ kind: 'contact', funnelId: 'f', contactId: '7' });
  });
  it('reads a new-format purchase with its amount', () => {
    expect(
      parseFunnelWebhook({
        event: 'purchase_created',
        funnel_id: 'f',
        contact: { id: 'c' },
        purchase: { amount: 49, currency: 'USD' },
      }),
    ).toMatchObject({ kind: 'purchase', amount: 49, currency: 'USD' });
  });
  it('reads the legacy formats', () => {
    expect(
      parseFunnelWebhook({
        event_type: 'contact_created',
        funnel_id: 'summer-sale',
        contact_id: 'c-1001',
        email: 'jane@example.com',
        phone: '+15551234567',
      }),
    ).toMatchObject({
      kind: 'contact',
      contactId: 'c-1001',
      phone: '+15551234567',
    });
    expect(
      parseFunnelWebhook({
        event_type: 'purchase_created',
        funnel_id: 'summer-sale',
        contact_id: 'c-1001',
        email: 'jane@example.com',
        amount: 49.0,
        currency: 'USD',
      }),
    ).toMatchObject({
      kind: 'purchase',
      amount: 49,
      currency: 'USD',
    });
  });
  it('recognises the handshake in both spellings', () => {
    expect(parseFunnelWebhook({ event: 'handshake' })).toEqual({ kind: 'handshake' });
    expect(parseFunnelWebhook({ event_type: 'handshake' })).toEqual({ kind: 'handshake' });
  });
  it('refuses what is not a known event', () => {
    expect(parseFunnelWebhook(null)).toMatchObject({ kind: 'invalid' });
    expect(parseFunnelWebhook([1])).toMatchObject({ kind: 'invalid' });
    expect(parseFunnelWebhook({})).toEqual({ kind: 'invalid', error: 'event is required' });
    expect(parseFunnelWebhook({ event: 'order_shipped' })).toEqual({
      kind: 'invalid',
      error: 'Unknown event type: order_shipped',
    });
  });
  it('never lets an operator object through as an id', () => {
    expect(
      parseFunnelWebhook({ event: 'contact_created', funnel_id: { $ne: null }, contact: { id: { $gt: '' } } }),
    ).toMatchObject({ funnelId: null, contactId: null });
  });
  it('refuses a value longer than its limit, naming the field', () => {
    const long = (n: number) => 'x'.repeat(n);
    const contact = { id: 'c-1', phone: '+14155550100', email: 'a@example.com' };
    expect(parseFunnelWebhook({ event: 'contact_created', funnel_id: long(200), contact })).toMatchObject({
      kind: 'contact',
    });
    expect(parseFunnelWebhook({ event: 'contact_created', funnel_id: long(201), contact })).toEqual({
      kind: 'invalid',
      error: 'funnel_id must be at most 200 characters',
    });
    expect(
      parseFunnelWebhook({
        event: 'contact_created',
        funnel_id: 'f',
        contact: { ...contact, first_name: long(200_000) },
      }),
    ).toEqual({ kind: 'invalid', error: 'first_name must be at most 200 characters' });
    expect(
      parseFunnelWebhook({ event: 'contact_created', funnel_id: 'f', contact: { ...contact, id: long(201) } }),
    ).toEqual({ kind: 'invalid', error: 'contact_id must be at most 200 characters' });
    expect(
      parseFunnelWebhook({ event: 'contact_created', funnel_id: 'f', contact: { ...contact, email: long(321) } }),
    ).toEqual({ kind: 'invalid', error: 'email must be at most 320 characters' });
    expect(parseFunnelWebhook({ event: long(5000) })).toEqual({
      kind: 'invalid',
      error: `Unknown event type: ${long(100)}`,
    });
  });
});
