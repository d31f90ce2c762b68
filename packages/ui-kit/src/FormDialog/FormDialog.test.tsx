import { fireEvent, render, screen } from '@testing-library/react';
import { FormDialog, formikError, formikField } from '.';

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

  it('as a sheet: a dialog named by its title with a close button that cancels', () => {
    const { onCancel } = renderDialog({ variant: 'sheet' });
    const sheet = screen.getByRole('dialog', { name: 'Add Thing' });
    expect(sheet.className).toContain('MuiDrawer-paper');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('as a sheet while busy: the close button is disabled too', () => {
    renderDialog({ variant: 'sheet', busy: true });
    expect((screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('formikField / formikError', () => {
  const form = {
    values: { name: '', funnel: 'x' },
    errors: { name: 'Name is required', funnel: 'Taken' },
    touched: { name: true } as Partial<Record<'name' | 'funnel', boolean>>,
    submitCount: 0,
    handleChange: () => {},
    handleBlur: () => {},
  };

  it('shows a message once the field was left or the form submitted, else the hint', () => {
    expect(formikField(form, 'name', 'hint')).toMatchObject({ error: true, helperText: 'Name is required' });
    expect(formikField(form, 'funnel', 'hint')).toMatchObject({ error: false, helperText: 'hint', value: 'x' });
    expect(formikError(form, 'funnel')).toBeUndefined();
    expect(formikError({ ...form, submitCount: 1 }, 'funnel')).toBe('Taken');
  });
});
