import { useEffect, useRef, useState } from 'react';
import { Box, Button, DialogActions, TextField, Typography } from '@mui/material';
import { getMarkRange, getMarkType, type Editor } from '@tiptap/core';
import {
  ControlledBubbleMenu,
  LinkBubbleMenu,
  linkBubbleMenuClasses,
  useKeyDown,
  useRichTextEditorContext,
  type LinkBubbleMenuHandlerStorage,
} from 'mui-tiptap';
import { formatLinkHref, linkHrefError } from './urls';

/** mui-tiptap's LinkMenuState.EDIT_LINK (the enum itself is not exported). */
const EDIT_LINK = 2;

/**
 * The editor's link popover: mui-tiptap's LinkBubbleMenu to view a link (Edit / Remove), and our own form to add
 * or edit one. mui-tiptap's form has no place for an error, so a refused scheme became `href=""` and "not a url"
 * became `https://not a url`, silently; this one says what is wrong under the field and saves nothing until the
 * link is one the email may carry (urls.ts).
 */
export function LinkMenu() {
  const editor = useRichTextEditorContext();
  if (!editor?.isEditable) return null;
  const handler = (editor.storage as unknown as { linkBubbleMenuHandler?: LinkBubbleMenuHandlerStorage })
    .linkBubbleMenuHandler;
  if (handler?.state !== EDIT_LINK) return <LinkBubbleMenu formatHref={formatLinkHref} />;
  return (
    <ControlledBubbleMenu
      editor={editor}
      open
      {...(handler.bubbleMenuOptions as object)}
      classes={{ root: linkBubbleMenuClasses.root, paper: linkBubbleMenuClasses.paper }}
    >
      <Box className={linkBubbleMenuClasses.content} sx={{ px: 2, pt: 1.5, pb: 0.5, width: 340, maxWidth: '90vw' }}>
        <EditLinkForm editor={editor} />
      </Box>
    </ControlledBubbleMenu>
  );
}

function EditLinkForm({ editor }: { editor: Editor }) {
  const existingHref: string = editor.isActive('link') ? (editor.getAttributes('link').href ?? '') : '';
  const range = getMarkRange(editor.state.selection.$from, getMarkType('link', editor.schema));
  const linkText = range ? editor.state.doc.textBetween(range.from, range.to) : '';
  const selected = editor.state.doc.textBetween(editor.state.selection.$from.pos, editor.state.selection.$to.pos);
  const initialText = linkText || selected;
  const isNew = !existingHref;

  const [text, setText] = useState(initialText);
  const [href, setHref] = useState(existingHref);
  const [textError, setTextError] = useState<string | null>(null);
  const [hrefError, setHrefError] = useState<string | null>(null);
  const textRef = useRef<HTMLInputElement>(null);
  const hrefRef = useRef<HTMLInputElement>(null);

  // Focus without autoFocus: the popper would jump the page (as mui-tiptap's own form notes).
  useEffect(() => {
    (isNew && initialText ? hrefRef : textRef).current?.focus({ preventScroll: true });
  }, [isNew, initialText]);
  const close = () => editor.commands.closeLinkBubbleMenu();
  useKeyDown('Escape', close);

  /** On leaving the field: show the stored form of a good link ("example.com" → https://...), keep a bad one as typed. */
  function tidyHref() {
    if (href.trim() && !linkHrefError(href)) setHref(formatLinkHref(href));
  }

  function save() {
    const nextTextError = text.trim() ? null : 'Enter the link text';
    const nextHrefError = linkHrefError(href);
    setTextError(nextTextError);
    setHrefError(nextHrefError);
    if (nextHrefError) return hrefRef.current?.focus();
    if (nextTextError) return textRef.current?.focus();
    const link = formatLinkHref(href);
    editor
      .chain()
      // The whole link mark when editing one; its text and href replaced.
      .extendMarkRange('link')
      .insertContent({ type: 'text', marks: [{ type: 'link', attrs: { href: link } }], text })
      // As in mui-tiptap: with autolink on, the mark from insertContent alone is not always applied.
      .setLink({ href: link })
      .focus()
      .run();
    close();
  }

  function remove() {
    editor.chain().extendMarkRange('link').unsetLink().setTextSelection(editor.state.selection.to).focus().run();
    close();
  }

  return (
    <form
      noValidate
      autoComplete="off"
      aria-label={isNew ? 'Add link' : 'Edit link'}
      onSubmit={(event) => {
        event.preventDefault();
        // Not the template form around the editor.
        event.stopPropagation();
        save();
      }}
    >
      <Typography variant="h6">{isNew ? 'Add link' : 'Edit link'}</Typography>
      <TextField
        inputRef={textRef}
        label="Text"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setTextError(null);
        }}
        error={Boolean(textError)}
        helperText={textError ?? undefined}
        margin="normal"
        size="small"
        fullWidth
        required
      />
      <TextField
        inputRef={hrefRef}
        label="Link"
        value={href}
        onChange={(e) => {
          setHref(e.target.value);
          setHrefError(null);
        }}
        onBlur={tidyHref}
        error={Boolean(hrefError)}
        helperText={hrefError ?? undefined}
        margin="dense"
        size="small"
        fullWidth
        required
      />
      <DialogActions sx={{ px: 0 }}>
        {!isNew && (
          <Button onClick={remove} color="error" variant="outlined" size="small" sx={{ mr: 'auto' }}>
            Remove
          </Button>
        )}
        <Button onClick={close} variant="outlined" size="small">
          Cancel
        </Button>
        <Button type="submit" color="primary" variant="outlined" size="small">
          Save
        </Button>
      </DialogActions>
    </form>
  );
}
