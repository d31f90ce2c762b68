import { act, fireEvent, render, screen } from '@testing-library/react';
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

  it('useToast outside the provider says where it belongs', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Buttons />)).toThrow(/ToastProvider/);
    spy.mockRestore();
  });
});
