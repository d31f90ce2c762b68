import { fireEvent, render, screen } from '@testing-library/react';
import { FormDialog } from '.';

function renderDialog(props: Partial<Parameters<typeof FormDialog>[0]> = {}) {
  const onSubmit = jest.fn();
  const onCancel = jest.fn();
  render(
    <FormDialog open title="Add Thing" onSubmit={onSubmit} onCancel={onCancel} submitLabel="Create" {...props}>
      <input aria-label="Name" />
    </FormDialog>,
  );
  return { onSubmit, onCancel };
}

describe('<FormDialog>', () => {
  it('is a dialog named by its title whose form submits on Enter and by its button; Cancel cancels', () => {
    const { onSubmit, onCancel } = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Add Thing' });
    fireEvent.submit(screen.getByLabelText('Name'));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it('while busy: both buttons disabled and Escape does nothing; shows the inline error', () => {
    const { onCancel } = renderDialog({ busy: true, error: 'Refused', errorTestId: 'thing-error' });
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: /Create/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onCancel).not.toHaveBeenCalled();
    expect(screen.getByTestId('thing-error').textContent).toBe('Refused');
  });

  it('not dismissible: only Cancel closes it', () => {
    const { onCancel } = renderDialog({ dismissible: false });
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onCancel).not.toHaveBeenCalled();
  });
});
