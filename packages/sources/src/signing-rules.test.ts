import { ADAPTERS, readOrigin, isTrusted, replayIds, weakensSigning, type SigningState } from './index';

const signed = (over: Partial<SigningState> = {}): SigningState => ({ id: 1, funnel_id: 'f', active: true, signed: true, ...over });
const plain = (over: Partial<SigningState> = {}): SigningState => ({ id: 2, funnel_id: 'g', active: true, signed: false, ...over });

describe('weakensSigning: the changes that are an admin\'s', () => {
  it('pausing, deleting, unsigning or moving a signed integration', () => {
    const s = signed();
    expect(weakensSigning(s, { ...s, active: false }, [])).toBe('pause a signed integration');
    expect(weakensSigning(s, null, [])).toBe('delete a signed integration');
    expect(weakensSigning(s, { ...s, signed: false }, [])).toBe('remove the signing secret');
    expect(weakensSigning(s, { ...s, funnel_id: 'other' }, [])).toBe('change the funnel of a signed integration');
    // Positive controls: a rename-like change, activating it, and the same changes to an unsigned one.
    expect(weakensSigning(s, { ...s }, [])).toBeNull();
    expect(weakensSigning({ ...s, active: false }, s, [])).toBeNull();
    const p = plain();
    expect(weakensSigning(p, { ...p, active: false }, [])).toBeNull();
    expect(weakensSigning(p, null, [])).toBeNull();
  });

  it('a twin of a signed funnel: created, moved there or activated there', () => {
    const s = signed();
    expect(weakensSigning(null, plain({ id: 0, funnel_id: 'f' }), [s])).toBe(
      'add another integration to a funnel with a signed integration',
    );
    expect(weakensSigning(plain(), plain({ funnel_id: 'f' }), [s])).not.toBeNull();
    expect(weakensSigning(plain({ funnel_id: 'f', active: false }), plain({ funnel_id: 'f' }), [s])).not.toBeNull();
    // Positive controls: another funnel, and editing a twin that already exists without activating it.
    expect(weakensSigning(null, plain({ id: 0, funnel_id: 'h' }), [s])).toBeNull();
    expect(weakensSigning(plain({ funnel_id: 'f', active: false }), plain({ funnel_id: 'f', active: false }), [s])).toBeNull();
  });
});

describe('replayIds: a verified delivery is known by what its signature covers', () => {
  const secret = 'replay-secret-0123456789';
  const raw = Buffer.from(JSON.stringify({ event: 'contact_created', funnel_id: 'f', contact: { id: 'c', phone: '+15550000000' } }));

  it('our scheme: the same signed timestamp and body under another X-Webhook-Id is the same delivery', () => {
    const now = Date.now();
    const headers = { ...lower(ADAPTERS.generic.sign(raw, secret, now)), 'x-webhook-id': 'one' };
    const replay = { ...headers, 'x-webhook-id': 'two' };
    const a = replayIds({ source: 'generic', raw, body: JSON.parse(raw.toString()), headers, verified: true });
    const b = replayIds({ source: 'generic', raw, body: JSON.parse(raw.toString()), headers: replay, verified: true });
    expect(a[0]).toBe(b[0]);
    expect(a).toContain('one');
    // Re-signed at another second: a new signed id (the sender's own id then recognises its retry).
    const resigned = { ...lower(ADAPTERS.generic.sign(raw, secret, now - 5_000)), 'x-webhook-id': 'one' };
    const c = replayIds({ source: 'generic', raw, body: JSON.parse(raw.toString()), headers: resigned, verified: true });
    expect(c[0]).not.toBe(a[0]);
    expect(c).toContain('one');
    // Unsigned: only the sender's id exists.
    expect(replayIds({ source: 'generic', raw, body: {}, headers: { 'x-webhook-id': 'one' }, verified: false })).toEqual(['one']);
  });

  it('Shopify: the signed body, whatever X-Shopify-Webhook-Id says', () => {
    const a = replayIds({ source: 'shopify', raw, body: {}, headers: { 'x-shopify-webhook-id': 'w1' }, verified: true });
    const b = replayIds({ source: 'shopify', raw, body: {}, headers: { 'x-shopify-webhook-id': 'w2' }, verified: true });
    expect(a[0]).toBe(b[0]);
    expect(a[0]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a).toEqual([a[0], 'w1']);
  });
});

describe('readOrigin', () => {
  it('an event without origin reads as an unverified delivery; staff actions and verified deliveries are trusted', () => {
    expect(isTrusted(readOrigin({}))).toBe(false);
    expect(isTrusted(readOrigin({ origin: { via: 'webhook', scheme: 'generic', verified: 'yes' } }))).toBe(false);
    expect(isTrusted(readOrigin({ origin: { via: 'webhook', scheme: 'shopify', verified: true, integrationId: 3 } }))).toBe(true);
    expect(isTrusted(readOrigin({ origin: { via: 'staff' } }))).toBe(true);
  });
});

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}
