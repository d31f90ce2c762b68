import { screen, waitFor } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { nextSequenceOrder, TemplateDialog } from './TemplateDialog';
import { change, click, signedIn } from '../test/fixtures';

function open(props: Partial<Parameters<typeof TemplateDialog>[0]> = {}) {
  const onClose = jest.fn();
  renderWithProviders(
    <TemplateDialog
      open
      campaignId={7}
      campaignName="Cart Recovery"
      template={null}
      defaultOrder={3}
      onClose={onClose}
      {...props}
    />,
  );
  return { onClose };
}

const message = () => screen.getByRole('textbox', { name: /^Message/ });
const counter = () => screen.getByTestId('sms-counter');

describe('template dialog: the 160 rule and its live counter (spec sections 5, 9)', () => {
  it('counts as the user types and turns red past 160, with the spec message, without waiting for blur', async () => {
    mockApi(signedIn);
    open();
    expect(counter().textContent).toBe('0/160');
    await change(message(), 'a'.repeat(160));
    expect(counter().textContent).toBe('160/160');
    expect(screen.queryByText('SMS messages must be 160 characters or less')).toBeNull();
    await change(message(), 'a'.repeat(161));
    expect(counter().textContent).toBe('161/160');
    expect(await screen.findByText('SMS messages must be 160 characters or less')).toBeTruthy();
  });

  it('says how long the message will be, in carriers’ segments, once typical values are filled in', async () => {
    mockApi(signedIn);
    open();
    await change(message(), 'No placeholders here');
    expect(screen.queryByTestId('sms-filled-length')).toBeNull();
    const text = `Hi {first_name}, ${'x'.repeat(90)} {checkout_url}`;
    await change(message(), text);
    // 'Alexandra' (9) for {first_name} (12), a 60-character link for {checkout_url} (14): past 160.
    const filled = text.length - 12 + 9 - 14 + 60;
    expect(filled).toBe(165);
    expect(screen.getByTestId('sms-filled-length').textContent).toBe(
      `With a typical first name, cart, code and a 60-character checkout link filled in: ${filled} characters, 2 segments (GSM-7) (more than one SMS).`,
    );
    expect(counter().textContent).toBe(`${text.length}/160`);
    // One character outside GSM-7 makes the whole message UCS-2: 70 a segment.
    await change(message(), 'Hola {first_name}, ¿olvidaste algo? Tu carrito: {checkout_url} ✓');
    expect(screen.getByTestId('sms-filled-length').textContent).toMatch(/: 10\d characters, 2 segments \(UCS-2\) \(more than one SMS\)\.$/);
    await change(message(), 'Your {{firstItemName}} is waiting: {{recoveryUrl}}');
    expect(screen.getByTestId('sms-filled-length').textContent).toMatch(/: 110 characters, 1 segment \(GSM-7\)\.$/);
  });

  it('refuses to save past 160 and sends nothing', async () => {
    const api = mockApi(signedIn);
    open();
    await change(screen.getByRole('textbox', { name: /^Template Name/ }), 'Nudge');
    await change(message(), 'b'.repeat(170));
    await click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('SMS messages must be 160 characters or less')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-templates')).toHaveLength(0);
  });

  it('shows the required messages and the order rule', async () => {
    mockApi(signedIn);
    open();
    await change(screen.getByRole('spinbutton', { name: 'Sequence Order' }), '0');
    await change(screen.getByRole('spinbutton', { name: 'Delay' }), '-1');
    await click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Template name is required')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(screen.getByText('Sequence order must be at least 1')).toBeTruthy();
    expect(screen.getByText('Delay must be 0 or greater')).toBeTruthy();
  });

  it('bounds the order and the delay from above', async () => {
    const api = mockApi(signedIn);
    open();
    await change(screen.getByRole('textbox', { name: /^Template Name/ }), 'Late');
    await change(message(), 'Hi');
    await change(screen.getByRole('spinbutton', { name: 'Sequence Order' }), '1001');
    await change(screen.getByRole('spinbutton', { name: 'Delay' }), '525601');
    await click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Sequence order must be at most 1000')).toBeTruthy();
    expect(screen.getByText('Delay must be at most 525600 minutes (one year)')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-templates')).toHaveLength(0);
  });

  it('hints both placeholders in the one spelling the email editor shows too, and inserts one on click', async () => {
    mockApi(signedIn);
    open();
    const hint = screen.getByTestId('placeholder-hint');
    expect(hint.textContent).toContain('First name');
    expect(hint.textContent).toContain('{{firstName}}');
    expect(hint.textContent).toContain('Checkout URL');
    expect(hint.textContent).toContain('{{checkoutUrl}}');
    expect(hint.textContent).not.toContain('{first_name}');
    await change(message(), 'Hi ');
    await click(screen.getByRole('button', { name: 'Insert {{firstName}}' }));
    expect((message() as HTMLTextAreaElement).value).toBe('Hi {{firstName}}');
  });

  it('proposes highest order + 1 and delay 0, and posts the whole body', async () => {
    const api = mockApi({
      ...signedIn,
      'POST /api/sms-templates': { status: 201, json: { id: 9 } },
      'GET /api/sms-templates': { json: [] },
      'GET /api/sms-campaigns': { json: [] },
    });
    const { onClose } = open();
    expect((screen.getByRole('spinbutton', { name: 'Sequence Order' }) as HTMLInputElement).value).toBe('3');
    expect((screen.getByRole('spinbutton', { name: 'Delay' }) as HTMLInputElement).value).toBe('0');
    await change(screen.getByRole('textbox', { name: /^Template Name/ }), ' Nudge ');
    await change(message(), 'Hi {first_name}: {checkout_url} ');
    await click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.callsTo('POST', '/api/sms-templates')[0]!.body).toEqual({
      campaign_id: 7,
      name: 'Nudge',
      message: 'Hi {first_name}: {checkout_url}',
      sequence_order: 3,
      delay_minutes: 0,
      active: true,
    });
    expect(await screen.findByText('Template created successfully')).toBeTruthy();
  });

  it("shows 'Failed to update template: {message}' when the server refuses", async () => {
    mockApi({ ...signedIn, 'PATCH /api/sms-templates/4': { status: 400, json: { error: 'Campaign not found' } } });
    open({
      template: {
        id: 4,
        campaign_id: 7,
        name: 'T',
        message: 'Hello',
        sequence_order: 1,
        delay_minutes: 5,
        active: true,
        created_at: '',
      },
    });
    await click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Failed to update template: Campaign not found')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
  });

  it('nextSequenceOrder: highest existing order plus 1, 1 for an empty campaign', () => {
    expect(nextSequenceOrder([])).toBe(1);
    expect(nextSequenceOrder([{ sequence_order: 2 }, { sequence_order: 5 }, { sequence_order: 1 }])).toBe(6);
  });
});
