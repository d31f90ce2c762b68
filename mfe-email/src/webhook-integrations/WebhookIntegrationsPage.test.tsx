import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { DEFAULT_INTEGRATION, SHOP_INTEGRATION, SIGNED_IN } from '../shared/testing';
import WebhookIntegrationsPage from './WebhookIntegrationsPage';

const PAUSED = {
  ...SHOP_INTEGRATION,
  id: 3,
  name: 'Winter Sale',
  funnel_id: 'winter',
  active: false,
  resend_template_id: 99,
};
const TEMPLATES = [
  { id: 7, name: 'Cart reminder', active: true, type: 'abandoned_cart' },
  { id: 8, name: 'Old reminder', active: false, type: 'abandoned_cart' },
  { id: 9, name: 'Welcome', active: true, type: 'welcome' },
];

const CAMPAIGNS = [
  {
    id: 3,
    name: 'Two-step nudge',
    description: null,
    type: 'abandoned_cart',
    active: true,
    created_at: '2026-03-01T09:00:00.000Z',
  },
  {
    id: 4,
    name: 'Retired',
    description: null,
    type: 'abandoned_cart',
    active: false,
    created_at: '2026-03-01T09:00:00.000Z',
  },
];
const SMS_CAMPAIGNS = [
  {
    id: 11,
    name: 'Text follow-up',
    integration_id: null,
    active: true,
    created_at: '2026-03-01T09:00:00.000Z',
    integration_name: null,
    template_count: 2,
  },
];

function api(extra = {}) {
  return mockApi({
    ...SIGNED_IN,
    'GET /api/webhook-integrations': { json: [DEFAULT_INTEGRATION, SHOP_INTEGRATION, PAUSED] },
    'GET /api/resend/templates': { json: TEMPLATES },
    'GET /api/email/campaigns': { json: CAMPAIGNS },
    'GET /api/sms-campaigns': { json: SMS_CAMPAIGNS },
    ...extra,
  });
}

const card = (name: string) => screen.getByRole('article', { name });
const toastText = async () => (await screen.findByTestId('toast')).textContent;

async function openNew() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add New Integration' }));
  await screen.findByRole('heading', { name: 'New Integration' });
}

describe('/webhook-integrations (spec §2, §4, §5, §8)', () => {
  it('a card per integration with its details; the default one cannot be deleted or cleared', async () => {
    api();
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    const shop = card('Summer Shop');
    for (const text of ['Active', 'shop-1', '45 minutes', 'Cart reminder']) expect(shop.textContent).toContain(text);
    const winter = card('Winter Sale');
    expect(winter.textContent).toContain('Inactive');
    expect(winter.textContent).toContain('Template ID: 99');
    expect(within(winter).getByRole('button', { name: 'Activate' })).toBeTruthy();
    const def = card('Default Integration');
    expect((within(def).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(def).getByRole('button', { name: 'Clear Associated Contacts' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect((within(shop).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('the empty text', async () => {
    api({ 'GET /api/webhook-integrations': { json: [] } });
    renderWithProviders(<WebhookIntegrationsPage />);
    expect(
      await screen.findByText('No webhook integrations found. Click "Add New Integration" to create one.'),
    ).toBeTruthy();
  });

  it('the form: required name and funnel id, delay 1 to 720 (default 30), nothing sent while invalid', async () => {
    const calls = api();
    renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    const delay = screen.getByLabelText(/Reminder Delay \(minutes\)/) as HTMLInputElement;
    expect(delay.value).toBe('30');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Funnel ID is required')).toBeTruthy();
    for (const value of ['0', '721', '']) {
      fireEvent.change(delay, { target: { value } });
      fireEvent.blur(delay);
      expect(await screen.findByText('Reminder delay must be between 1 and 720 minutes')).toBeTruthy();
    }
    expect(calls.callsTo('POST', '/api/webhook-integrations')).toHaveLength(0);
  });

  it('creates with the spec fields; the template choice offers active abandoned_cart templates and none', async () => {
    const calls = api({
      'POST /api/webhook-integrations': { status: 201, json: { ...SHOP_INTEGRATION, id: 4 } },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: ' Spring Promo ' } });
    fireEvent.change(screen.getByLabelText(/^Funnel ID/), { target: { value: 'spring' } });
    fireEvent.change(screen.getByLabelText(/Reminder Delay \(minutes\)/), { target: { value: '90' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Resend Email Template' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    // Only active templates can be used for sending (spec section 4): an inactive one is not offered.
    expect(options.map((o) => o.textContent)).toEqual(['None', 'Cart reminder']);
    fireEvent.click(options[1]);
    fireEvent.click(screen.getByRole('switch', { name: /Active/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await toastText()).toContain('Integration created');
    expect(calls.callsTo('POST', '/api/webhook-integrations')[0].body).toEqual({
      name: 'Spring Promo',
      funnel_id: 'spring',
      active: false,
      reminder_delay: 90,
      resend_template_id: 7,
      campaign_id: null,
    });
    await waitFor(() => expect(calls.callsTo('GET', '/api/webhook-integrations')).toHaveLength(2));
  });

  it('sends a fallback checkout link when one is entered, and refuses one that is not an http(s) URL', async () => {
    const calls = api({
      'POST /api/webhook-integrations': { status: 201, json: { ...SHOP_INTEGRATION, id: 5 } },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Linked' } });
    fireEvent.change(screen.getByLabelText(/^Funnel ID/), { target: { value: 'linked' } });
    const link = screen.getByLabelText('Fallback checkout link');
    fireEvent.change(link, { target: { value: 'ftp://shop.example.com/cart' } });
    fireEvent.blur(link);
    expect(await screen.findByText('The fallback checkout link must be an http(s) URL')).toBeTruthy();
    fireEvent.change(link, { target: { value: ' https://shop.example.com/cart ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await toastText()).toContain('Integration created');
    expect(calls.callsTo('POST', '/api/webhook-integrations')[0].body).toMatchObject({
      name: 'Linked',
      checkout_fallback_url: 'https://shop.example.com/cart',
    });
  });

  it('the card names its email campaign and links to it; None without one', async () => {
    api();
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    const link = await within(card('Summer Shop')).findByRole('link', { name: 'Two-step nudge' });
    expect(link.getAttribute('href')).toBe('/email-templates/3');
    const hrefs = within(card('Default Integration'))
      .queryAllByRole('link')
      .map((l) => l.getAttribute('href'));
    expect(hrefs).toEqual(['/documentation?integration=1']);
    expect(
      within(card('Summer Shop')).getByRole('link', { name: 'How to connect Summer Shop' }).getAttribute('href'),
    ).toBe('/documentation?integration=2');
    expect(card('Default Integration').textContent).toContain('Email CampaignNone');
  });

  it('attaches an email campaign: active campaigns and None are offered, campaign_id is sent', async () => {
    const calls = api({ 'POST /api/webhook-integrations': { status: 201, json: { ...SHOP_INTEGRATION, id: 6 } } });
    renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Sequence' } });
    fireEvent.change(screen.getByLabelText(/^Funnel ID/), { target: { value: 'seq' } });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Email campaign' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['None', 'Two-step nudge']);
    fireEvent.click(options[1]);
    expect(screen.getByText('Not used while a campaign is chosen: the campaign’s templates are sent.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await toastText()).toContain('Integration created');
    expect(calls.callsTo('POST', '/api/webhook-integrations')[0].body).toMatchObject({
      funnel_id: 'seq',
      campaign_id: 3,
    });
    expect(calls.callsTo('GET', '/api/sms-campaigns')).toHaveLength(0);
  });

  it('an edit keeps, changes or clears the campaign', async () => {
    const calls = api({ 'PATCH /api/webhook-integrations/2': { json: SHOP_INTEGRATION } });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Edit' }));
    await screen.findByRole('heading', { name: 'Edit Integration' });
    expect(screen.queryByRole('radiogroup')).toBeNull();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Email campaign' }));
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'None' }));
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await toastText()).toContain('Integration updated');
    expect(calls.callsTo('PATCH', '/api/webhook-integrations/2')[0].body).toMatchObject({
      campaign_id: null,
      resend_template_id: 7,
    });
  });

  it('creates both channels for one funnel id in one step: one POST to each side', async () => {
    const calls = api({
      'POST /api/webhook-integrations': { status: 201, json: { ...SHOP_INTEGRATION, id: 7 } },
      'POST /api/sms-webhook-integrations': { status: 201, json: { id: 9 } },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    fireEvent.click(screen.getByRole('radio', { name: 'Email and SMS' }));
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Both Shop' } });
    fireEvent.change(screen.getByLabelText(/^Funnel ID/), { target: { value: 'both-1' } });
    fireEvent.change(screen.getByLabelText(/Reminder Delay \(minutes\)/), { target: { value: '60' } });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'SMS campaign' }));
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Text follow-up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const text = await toastText();
    expect(text).toContain('Integration created');
    expect(text).toContain('Both Shop (email and SMS)');
    expect(calls.callsTo('POST', '/api/webhook-integrations')[0].body).toMatchObject({
      name: 'Both Shop',
      funnel_id: 'both-1',
      reminder_delay: 60,
    });
    expect(calls.callsTo('POST', '/api/sms-webhook-integrations')[0].body).toEqual({
      name: 'Both Shop',
      funnel_id: 'both-1',
      sms_campaign_id: 11,
      reminder_delay: 60,
      active: true,
    });
  });

  it('SMS only posts to the SMS side alone; a refused SMS side after the email one says which was created', async () => {
    let calls = api({ 'POST /api/sms-webhook-integrations': { status: 201, json: { id: 9 } } });
    const { unmount } = renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    fireEvent.click(screen.getByRole('radio', { name: 'SMS' }));
    expect(screen.queryByRole('combobox', { name: 'Resend Email Template' })).toBeNull();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Texts' } });
    fireEvent.change(screen.getByLabelText(/^Funnel ID/), { target: { value: 'texts' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await toastText()).toContain('Texts (SMS)');
    expect(calls.callsTo('POST', '/api/webhook-integrations')).toHaveLength(0);
    expect(calls.callsTo('POST', '/api/sms-webhook-integrations')).toHaveLength(1);
    unmount();

    calls = api({
      'POST /api/webhook-integrations': { status: 201, json: { ...SHOP_INTEGRATION, id: 8 } },
      'POST /api/sms-webhook-integrations': {
        status: 409,
        json: { error: 'An SMS integration with this funnel ID already exists' },
      },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    fireEvent.click(screen.getByRole('radio', { name: 'Email and SMS' }));
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Half' } });
    fireEvent.change(screen.getByLabelText(/^Funnel ID/), { target: { value: 'half' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const text = await toastText();
    expect(text).toContain('Error creating integration');
    expect(text).toContain(
      'The email integration Half was created; the SMS integration was not: An SMS integration with this funnel ID already exists',
    );
    expect(calls.callsTo('POST', '/api/webhook-integrations')).toHaveLength(1);
  });

  it("create refused: 'Error creating integration' with the server's message", async () => {
    api({
      'POST /api/webhook-integrations': {
        status: 409,
        json: { error: 'An integration with this funnel ID already exists' },
      },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await openNew();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Dup' } });
    fireEvent.change(screen.getByLabelText(/^Funnel ID/), { target: { value: 'shop-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const text = await toastText();
    expect(text).toContain('Error creating integration');
    expect(text).toContain('An integration with this funnel ID already exists');
    expect(screen.getByRole('heading', { name: 'New Integration' })).toBeTruthy();
  });

  it('edits the default integration: funnel id locked, full body sent, Update', async () => {
    const calls = api({
      'PATCH /api/webhook-integrations/1': { json: { ...DEFAULT_INTEGRATION, reminder_delay: 20 } },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Default Integration' });
    fireEvent.click(within(card('Default Integration')).getByRole('button', { name: 'Edit' }));
    await screen.findByRole('heading', { name: 'Edit Integration' });
    expect((screen.getByLabelText(/^Funnel ID/) as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Reminder Delay \(minutes\)/), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await toastText()).toContain('Integration updated');
    expect(calls.callsTo('PATCH', '/api/webhook-integrations/1')[0].body).toEqual({
      name: 'Default Integration',
      funnel_id: 'default',
      active: true,
      reminder_delay: 20,
      resend_template_id: null,
      campaign_id: null,
    });
  });

  it("update refused: 'Error updating integration'", async () => {
    api({ 'PATCH /api/webhook-integrations/2': { status: 400, json: { error: 'nope' } } });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Edit' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await toastText()).toContain('Error updating integration');
  });

  it('pause and activate send only the active flag', async () => {
    const calls = api({
      'PATCH /api/webhook-integrations/2': { json: { ...SHOP_INTEGRATION, active: false } },
      'PATCH /api/webhook-integrations/3': { json: { ...PAUSED, active: true } },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Pause' }));
    let text = await toastText();
    expect(text).toContain('Integration paused');
    expect(text).toContain('The integration is now paused.');
    expect(calls.callsTo('PATCH', '/api/webhook-integrations/2')[0].body).toEqual({ active: false });

    fireEvent.click(within(card('Winter Sale')).getByRole('button', { name: 'Activate' }));
    await waitFor(async () => expect(await toastText()).toContain('Integration activated'));
    text = await toastText();
    expect(text).toContain('The integration is now active.');
    expect(calls.callsTo('PATCH', '/api/webhook-integrations/3')[0].body).toEqual({ active: true });
  });

  it("a refused toggle: 'Error updating status'", async () => {
    api({ 'PATCH /api/webhook-integrations/2': { status: 500, json: { error: 'x' } } });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Pause' }));
    expect(await toastText()).toContain('Error updating status');
  });

  it('delete asks with the name; a refusal about contacts explains what to do', async () => {
    const calls = api({
      'DELETE /api/webhook-integrations/2': {
        status: 409,
        json: { error: 'Cannot delete integration with associated contacts. Clear the contacts first.' },
      },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Are you sure you want to delete Summer Shop?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const text = await toastText();
    expect(text).toContain('Cannot delete integration');
    expect(text).toContain('This integration has contacts associated with it. Please clear the contacts first.');
    expect(calls.callsTo('DELETE', '/api/webhook-integrations/2')).toHaveLength(1);
  });

  it("any other refused delete: 'Error deleting integration'", async () => {
    api({ 'DELETE /api/webhook-integrations/2': { status: 500, json: { error: 'Internal server error' } } });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await toastText()).toContain('Error deleting integration');
  });

  it('clearing contacts asks first, says it cannot be undone, then toasts', async () => {
    const calls = api({
      'POST /api/webhook-integrations/2/clear-contacts': { json: { success: true, message: 'Cleared 4 contacts' } },
    });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Clear Associated Contacts' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Summer Shop');
    expect(dialog.textContent).toContain('cannot be undone');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear Contacts' }));
    const text = await toastText();
    expect(text).toContain('Contacts cleared');
    expect(text).toContain('Cleared 4 contacts');
    expect(calls.callsTo('POST', '/api/webhook-integrations/2/clear-contacts')).toHaveLength(1);
  });

  it("clearing refused: 'Error clearing contacts'", async () => {
    api({ 'POST /api/webhook-integrations/2/clear-contacts': { status: 500, json: { error: 'x' } } });
    renderWithProviders(<WebhookIntegrationsPage />);
    await screen.findByRole('article', { name: 'Summer Shop' });
    fireEvent.click(within(card('Summer Shop')).getByRole('button', { name: 'Clear Associated Contacts' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear Contacts' }));
    expect(await toastText()).toContain('Error clearing contacts');
  });
});
