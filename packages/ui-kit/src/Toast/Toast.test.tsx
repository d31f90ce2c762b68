import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Dialog, DialogActions } from '@mui/material';
import { ToastProvider, useToast } from '.';

function Buttons() {
  const { toast } = useToast();
  return (
    <>
      <button onClick={() => toast({ title: 'Profile Updated', description: 'Saved.' })}>first</button>
      <button
        onClick={() =>
          toast({ title: 'Update Failed', description: 'Failed to update profile', variant: 'destructive' })
        }
      >
        second
      </button>
    </>
  );
}

describe('toasts', () => {
  it('shows at most one toast: a new one replaces the current one', () => {
    render(
      <ToastProvider>
        <Buttons />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('first'));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toContain('Profile Updated');

    fireEvent.click(screen.getByText('second'));
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].textContent).toContain('Update Failed');
    expect(alerts[0].textContent).toContain('Failed to update profile');
    expect(screen.queryByText('Profile Updated')).toBeNull();
    // destructive → the error colour
    expect(alerts[0].className).toMatch(/Error|error/);
  });

  it('hides by itself after a while', () => {
    jest.useFakeTimers();
    render(
      <ToastProvider duration={1000}>
        <Buttons />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('first'));
    expect(screen.getByRole('alert')).toBeTruthy();
    act(() => {
      jest.advanceTimersByTime(1500);
    });
    // then the exit transition runs out
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
    jest.useRealTimers();
  });

  it('hides after its time even while the pointer rests on it', () => {
    jest.useFakeTimers();
    render(
      <ToastProvider duration={1000}>
        <Buttons />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('second'));
    const alert = screen.getByRole('alert');
    // MUI's own timer pauses on mouseenter and never resumed for a resting pointer.
    fireEvent.mouseEnter(alert.parentElement!);
    fireEvent.mouseOver(alert);
    act(() => {
      jest.advanceTimersByTime(1500);
    });
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
    jest.useRealTimers();
  });

  /** A page with a button that toasts and opens a dialog in one click, and a dialog whose Create toasts. */
  function DialogPage({ startOpen }: { startOpen: boolean }) {
    const { toast } = useToast();
    const [open, setOpen] = useState(startOpen);
    return (
      <>
        <p>page</p>
        <Button
          onClick={() => {
            toast({ title: 'Campaign created' });
            setOpen(true);
          }}
        >
          Save and edit
        </Button>
        <Dialog open={open} aria-label="Sheet">
          <DialogActions>
            <Button onClick={() => toast({ title: 'Save failed', variant: 'destructive' })}>Create</Button>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
          </DialogActions>
        </Dialog>
      </>
    );
  }

  /** The toast saying `text` is inside the dialog and not aria-hidden; after Cancel it is back on the page. */
  async function expectInDialogThenOnPage(text: string) {
    await waitFor(() =>
      expect(screen.getByRole('dialog').parentElement!.contains(screen.getByTestId('toast'))).toBe(true),
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(text);
    expect(alert.closest('[aria-hidden="true"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    // The dialog is closing: the toast is back on the page, still shown.
    await waitFor(() => expect(document.querySelector('.MuiDialog-root [data-testid="toast"]')).toBeNull());
    expect(screen.getByTestId('toast').textContent).toContain(text);
  }

  it('inside an open dialog: shown within it, not aria-hidden; back on the page once the dialog closes', async () => {
    render(
      <ToastProvider>
        <DialogPage startOpen />
      </ToastProvider>,
    );
    // The dialog hides the rest of the page from assistive technology.
    expect(screen.getByText('page').closest('[aria-hidden="true"]')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await expectInDialogThenOnPage('Save failed');
  });

  it('a toast shown as a dialog opens (same click, or just before) moves into it, so it is not aria-hidden', async () => {
    render(
      <ToastProvider>
        <DialogPage startOpen={false} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save and edit' }));
    await expectInDialogThenOnPage('Campaign created');
  });

  it('useToast outside the provider says where it belongs', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Buttons />)).toThrow(/ToastProvider/);
    spy.mockRestore();
  });
});
