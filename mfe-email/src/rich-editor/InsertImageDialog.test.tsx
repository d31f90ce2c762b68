import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@act/ui-kit/src/testing';
import { ALT_TEXT_HINT, ALT_TEXT_REQUIRED, InsertImageDialog } from './InsertImageDialog';
import { appendImage } from './urls';
import { fillVariables } from './HtmlPreview';
import { VariableChips } from './VariableChips';

describe('Insert Image: alt text', () => {
  it('asks for alt text with a hint, refuses to insert without it, and passes it with the URL', () => {
    const onInsert = jest.fn();
    const onClose = jest.fn();
    renderWithProviders(<InsertImageDialog open onClose={onClose} onInsert={onInsert} />);
    fireEvent.change(screen.getByLabelText('Image URL'), { target: { value: 'https://cdn.example.com/shoe.png' } });
    const alt = screen.getByRole('textbox', { name: /Alt text/ });
    expect(alt.hasAttribute('required')).toBe(true);
    expect(screen.getByText(ALT_TEXT_HINT)).toBeTruthy();
    const insert = screen.getByRole('button', { name: 'Insert' }) as HTMLButtonElement;
    expect(insert.disabled).toBe(true);
    // Enter in the alt field with nothing typed says why instead of inserting.
    fireEvent.keyDown(alt, { key: 'Enter' });
    expect(screen.getByText(ALT_TEXT_REQUIRED)).toBeTruthy();
    fireEvent.change(alt, { target: { value: '   ' } });
    expect(insert.disabled).toBe(true);
    fireEvent.change(alt, { target: { value: ' Blue running shoes ' } });
    expect(insert.disabled).toBe(false);
    fireEvent.click(insert);
    expect(onInsert).toHaveBeenCalledWith('https://cdn.example.com/shoe.png', 'Blue running shoes');
    expect(onClose).toHaveBeenCalled();
    expect(appendImage('<p>x</p>', 'https://cdn.example.com/shoe.png', 'Blue "running" shoes')).toBe(
      '<p>x</p><img src="https://cdn.example.com/shoe.png" alt="Blue &quot;running&quot; shoes">',
    );
  });
});

describe('email variables: the first name, one spelling shown, every spelling filled', () => {
  it('offers {{firstName}} among the variables, each in the double-brace spelling', () => {
    const onInsert = jest.fn();
    renderWithProviders(<VariableChips onInsert={onInsert} />);
    const chips = screen.getAllByRole('button').map((b) => b.textContent);
    expect(chips).toEqual([
      '{{contactEmail}}',
      '{{firstName}}',
      '{{recoveryUrl}}',
      '{{unsubscribeUrl}}',
      '{{cartTotal}}',
      '{{itemCount}}',
      '{{firstItemName}}',
      '{{discountCode}}',
    ]);
    fireEvent.click(screen.getByRole('button', { name: /Insert \{\{firstName\}\}/ }));
    expect(onInsert).toHaveBeenCalledWith('{{firstName}}');
  });

  it('the preview fills both spellings with the sender’s rule', () => {
    expect(fillVariables('<p>Hi {{firstName}} / {first_name}, <a href="{checkout_url}">back</a></p>')).toBe(
      '<p>Hi Jane / Jane, <a href="https://example.com/cart/recover">back</a></p>',
    );
  });
});
