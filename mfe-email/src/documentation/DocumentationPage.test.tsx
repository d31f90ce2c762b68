import { fireEvent, render, screen } from '@testing-library/react';
import { ThemeProvider } from '@mui/material';
import { theme } from '@act/ui-kit';
import DocumentationPage from './DocumentationPage';

function renderPage() {
  return render(
    <ThemeProvider theme={theme}>
      <DocumentationPage />
    </ThemeProvider>,
  );
}

describe('/documentation (spec §2)', () => {
  it('has the three tabs of the spec, then one per sender and the API reference, and the setup steps with the endpoint URL and the required events', () => {
    renderPage();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'ClickFunnels Setup',
      'Testing',
      'Phase 2',
      'ClickFunnels 2.0',
      'ClickFunnels Classic',
      'Shopify',
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
