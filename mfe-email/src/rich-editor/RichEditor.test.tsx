import { useState } from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Editor } from '@tiptap/core';
import { renderWithProviders } from '@act/ui-kit/src/testing';
import { RichEditor } from './RichEditor';

/** The editor inside a form that re-renders it as the template dialog does: an error shown, the value it reported. */
function Form() {
  const [html, setHtml] = useState('<p>Hi</p>');
  const [error, setError] = useState<string | undefined>();
  return (
    <>
      <button type="button" onClick={() => setError('Template name is required')}>
        Save
      </button>
      <RichEditor label="Email content" value={html} onChange={setHtml} error={Boolean(error)} helperText={error} />
      <output data-testid="html">{html}</output>
    </>
  );
}

describe('the rich editor keeps its options across renders', () => {
  it('is not re-configured when the form around it re-renders (an error, its own edits)', async () => {
    const setOptions = jest.spyOn(Editor.prototype, 'setOptions');
    renderWithProviders(<Form />);
    const editor = await screen.findByRole('textbox', { name: 'Email content' });
    // Settled: the editor made, and the mount's own deferred hand-over of the options done.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const afterMount = setOptions.mock.calls.length;

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Template name is required');
    // An edit the editor reports: the form's value changes and it renders again.
    const tiptap = (editor as unknown as { editor: Editor }).editor;
    act(() => {
      tiptap.commands.insertContentAt(tiptap.state.doc.content.size - 1, ' there');
    });
    await waitFor(() => expect(screen.getByTestId('html').textContent).toBe('<p>Hi there</p>'));
    // Same attributes on the editable area, and no setOptions (a re-applied view) for any of those renders.
    expect(editor.getAttribute('aria-label')).toBe('Email content');
    expect(setOptions.mock.calls.length).toBe(afterMount);
    setOptions.mockRestore();
  });
});
