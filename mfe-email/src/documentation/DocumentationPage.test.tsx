import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { WEBHOOK_SOURCE_LABELS, WEBHOOK_SOURCES } from '@act/contracts/src/webhook-signing';
import { DEFAULT_INTEGRATION, SHOP_INTEGRATION, SIGNED_IN } from '../shared/testing';
import DocumentationPage from './DocumentationPage';

const SHOPIFY = {
  ...SHOP_INTEGRATION,
  id: 5,
  name: 'Shopify store',
  signing: { has_secret: true, source: 'shopify' as const },
};
const SMS_TEXTS = {
  id: 9,
  name: 'Texts',
  webhook_url: 'http://127.0.0.1:8080/api/sms/webhook/i/smsKey0123456789abcdef',
  signing: { has_secret: false, source: null },
};

function renderPage(route = '/documentation', integrations: unknown[] = [DEFAULT_INTEGRATION, SHOP_INTEGRATION]) {
  const calls = mockApi({
    ...SIGNED_IN,
    'GET /api/webhook-integrations': { json: integrations },
    'GET /api/sms-webhook-integrations': { json: [SMS_TEXTS] },
  });
  renderWithProviders(<DocumentationPage />, { route });
  return calls;
}

const selectedTab = () =>
  screen.getAllByRole('tab').find((t) => t.getAttribute('aria-selected') === 'true')?.textContent;

describe('/documentation (spec §2)', () => {
  it('has the three tabs of the spec, then one per sender and the API reference, and the setup steps with the endpoint URL and the required events', () => {
    renderPage();
    // One tab per sender of the list packages/sources adapts (contracts' WEBHOOK_SOURCES), the spec's own format last.
    const senders = WEBHOOK_SOURCES.filter((s) => s !== 'generic').map((s) => WEBHOOK_SOURCE_LABELS[s]);
    expect(senders.slice(0, 3)).toEqual(['ClickFunnels 2.0', 'ClickFunnels Classic', 'Shopify']);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'ClickFunnels Setup',
      'Testing',
      'Phase 2',
      ...senders,
      'Signed deliveries',
      'API reference',
    ]);
    expect(screen.getByRole('heading', { name: /Step 1: Create a webhook integration/ })).toBeTruthy();
    expect(screen.getByText(/exactly as ClickFunnels shows it/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Step 2/ })).toBeTruthy();
    expect(screen.getByLabelText('Webhook endpoint URL').textContent).toBe(`${window.location.origin}/api/webhook`);
    for (const event of ['contact_created', 'contact_updated', 'purchase_created'])
      expect(screen.getByText(event)).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Step 3/ })).toBeTruthy();
  });

  it('Testing: the new format, legacy contact_created and legacy purchase_created bodies', () => {
    renderPage();
    fireEvent.click(screen.getByRole('tab', { name: 'Testing' }));
    const body = (name: string) => JSON.parse(screen.getByLabelText(`${name} body`).textContent ?? '');
    expect(body('New format')).toMatchObject({
      event: 'contact_created',
      contact: { id: expect.any(String), email: expect.any(String), funnel_id: expect.any(String) },
    });
    expect(body('Legacy contact_created')).toMatchObject({ event_type: 'contact_created' });
    expect(body('Legacy purchase_created')).toMatchObject({
      event_type: 'purchase_created',
      amount: 49,
      currency: 'USD',
    });
  });

  it('Phase 2: a real send is planned, for now only a would_send log entry', () => {
    renderPage();
    fireEvent.click(screen.getByRole('tab', { name: 'Phase 2' }));
    expect(screen.getByText(/real send of the reminder email/)).toBeTruthy();
    expect(screen.getByText('would_send')).toBeTruthy();
  });
});

describe('/documentation: the tab that fits, and "How to connect"', () => {
  it('opens on the specification’s first tab when no integration names a sender; the ClickFunnels steps come before the event names', async () => {
    renderPage();
    await waitFor(() => expect(selectedTab()).toBe('ClickFunnels Setup'));
    const step2 = screen.getByRole('region', { name: /Step 2/ });
    const note = within(step2).getByTestId('setup-own-senders');
    const firstEvent = within(step2).getByText('contact_created');
    // The note that ClickFunnels posts its own events precedes the tracker's own event names in the page.
    expect(note.compareDocumentPosition(firstEvent) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    fireEvent.click(within(note).getByRole('button', { name: 'ClickFunnels 2.0 steps' }));
    expect(selectedTab()).toBe('ClickFunnels 2.0');
    expect(screen.getByRole('region', { name: 'Connect ClickFunnels 2.0' })).toBeTruthy();
  });

  it('opens on the sender the integrations use', async () => {
    renderPage('/documentation', [DEFAULT_INTEGRATION, SHOPIFY]);
    await waitFor(() => expect(selectedTab()).toBe('Shopify'));
    // Chosen by the reader, a tab stays chosen.
    fireEvent.click(screen.getByRole('tab', { name: 'Testing' }));
    expect(selectedTab()).toBe('Testing');
  });

  it('from an email card: its sender’s steps with its own URL written in, and its test delivery ready', async () => {
    renderPage('/documentation?integration=5', [DEFAULT_INTEGRATION, SHOPIFY]);
    await waitFor(() => expect(selectedTab()).toBe('Shopify'));
    expect((await screen.findByTestId('connect-target')).textContent).toContain('How to connect Shopify store');
    expect(screen.getByLabelText('Webhook URL of Shopify store').textContent).toBe(SHOPIFY.webhook_url);
    expect(screen.getByRole('combobox', { name: 'Integration' }).textContent).toContain('Shopify store');
    // Another sender's tab keeps the integration's URL.
    fireEvent.click(screen.getByRole('tab', { name: 'ClickFunnels Classic' }));
    expect(screen.getByLabelText('Webhook URL of Shopify store').textContent).toBe(SHOPIFY.webhook_url);
  });

  it('from a Stripe or a WooCommerce card: their own steps (events or topics by name, where the secret goes) with the URL written in', async () => {
    const stripe = { ...SHOP_INTEGRATION, id: 6, name: 'Stripe shop', signing: { has_secret: true, source: 'stripe' as const } };
    const woo = { ...SHOP_INTEGRATION, id: 7, name: 'Woo shop', webhook_url: 'http://127.0.0.1:8080/api/webhook/i/wooKey0123456789abcdef', signing: { has_secret: false, source: 'woocommerce' as const } };
    renderPage('/documentation?integration=6', [DEFAULT_INTEGRATION, stripe, woo]);
    await waitFor(() => expect(selectedTab()).toBe('Stripe Checkout'));
    const connect = within(await screen.findByRole('region', { name: 'Connect Stripe Checkout' }));
    expect(connect.getByLabelText('Webhook URL of Stripe shop').textContent).toBe(stripe.webhook_url);
    for (const event of ['checkout.session.expired', 'checkout.session.completed', 'checkout.session.async_payment_succeeded']) expect(connect.getByText(event)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Its signing secret' })).getByText(/whsec_/)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'WooCommerce' }));
    const woocommerce = within(screen.getByRole('region', { name: 'Connect WooCommerce' }));
    expect(woocommerce.getByLabelText('Webhook URL of Stripe shop').textContent).toBe(stripe.webhook_url);
    for (const topic of ['order.created', 'order.updated']) expect(woocommerce.getByText(topic)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Its signing secret' })).getByText('X-WC-Webhook-Signature')).toBeTruthy();
  });

  it('from a card without a sender: the first sender’s steps, its URL written in', async () => {
    renderPage('/documentation?integration=2');
    await waitFor(() => expect(selectedTab()).toBe('ClickFunnels 2.0'));
    expect((await screen.findByLabelText('Webhook URL of Summer Shop')).textContent).toBe(SHOP_INTEGRATION.webhook_url);
  });

  it('from an SMS card: the SMS integration’s own URL', async () => {
    const calls = renderPage('/documentation?integration=9&side=sms');
    expect((await screen.findByLabelText('Webhook URL of Texts')).textContent).toBe(SMS_TEXTS.webhook_url);
    expect(selectedTab()).toBe('ClickFunnels 2.0');
    expect(calls.callsTo('GET', '/api/sms-webhook-integrations')).toHaveLength(1);
  });

  it('?sender= opens that sender; every sender of the list has its steps, named, with its test delivery', () => {
    renderPage('/documentation?sender=generic');
    expect(selectedTab()).toBe('Signed deliveries');
    for (const source of WEBHOOK_SOURCES.filter((s) => s !== 'generic')) {
      const label = WEBHOOK_SOURCE_LABELS[source];
      fireEvent.click(screen.getByRole('tab', { name: label }));
      expect(screen.getByRole('region', { name: `Connect ${label}` })).toBeTruthy();
      expect(screen.getByRole('region', { name: `Send a test ${label} delivery` })).toBeTruthy();
    }
  });
});
