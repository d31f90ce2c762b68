import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi, renderWithProviders } from '../testing';
import { PreviewContactPicker, type PreviewChoice } from './PreviewContactPicker';

const ENDPOINT = '/api/resend/templates/preview/contacts';
const JO = { id: 7, email: 'jo@example.com', phone: null, first_name: 'Jo', has_cart: true, created_at: '2026-11-27T10:00:00.000Z' };

/** The picker in a form that keeps its choice, as the template dialogs do; the choice shown beside it. */
function Form() {
  const [choice, setChoice] = useState<PreviewChoice | null>(null);
  return (
    <>
      <PreviewContactPicker endpoint={ENDPOINT} value={choice} onChange={setChoice} searchBy="email" />
      <output data-testid="choice">{JSON.stringify(choice)}</output>
    </>
  );
}

/** The contacts route, answering only when `answer()` is called. */
function heldContacts() {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  mockApi({
    [`GET ${ENDPOINT}`]: async () => {
      await held;
      return { json: { contacts: [JO], default_contact_id: JO.id } };
    },
  });
  return () => answer();
}

describe('PreviewContactPicker', () => {
  it('takes the service’s default contact when nothing is chosen yet', async () => {
    const answer = heldContacts();
    renderWithProviders(<Form />);
    answer();
    await waitFor(() => expect(screen.getByTestId('choice').textContent).toBe(JSON.stringify({ contactId: JO.id })));
    const picker = screen.getByRole('combobox', { name: 'Preview as' }) as HTMLInputElement;
    await waitFor(() => expect(picker.value).toBe('Jo · jo@example.com (cart)'));
  });

  it('keeps sample data chosen before the first answer: the default does not replace it', async () => {
    const answer = heldContacts();
    renderWithProviders(<Form />);
    const picker = screen.getByRole('combobox', { name: 'Preview as' });
    fireEvent.mouseDown(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'Sample data' }));
    expect(screen.getByTestId('choice').textContent).toBe(JSON.stringify({ sample: true }));

    answer();
    // The answer is in: its contact is offered, and the choice is still sample data.
    fireEvent.mouseDown(picker);
    await screen.findByRole('option', { name: 'Jo · jo@example.com (cart)' });
    expect(screen.getByTestId('choice').textContent).toBe(JSON.stringify({ sample: true }));
    expect((picker as HTMLInputElement).value).toBe('Sample data');
  });
});
