import { useMemo, useRef, useState, type Ref } from 'react';
import { Box, FormHelperText, MenuItem, TextField } from '@mui/material';
import { CART_BLOCK_DEFAULT_ITEMS, CART_BLOCK_MAX_ITEMS } from '@act/contracts/src/cart-block';
import IndentIcon from '@mui/icons-material/FormatIndentIncrease';
import OutdentIcon from '@mui/icons-material/FormatIndentDecrease';
import ImageIcon from '@mui/icons-material/InsertPhotoOutlined';
import CartIcon from '@mui/icons-material/ShoppingCartOutlined';
import {
  MenuButton,
  MenuButtonBold,
  MenuButtonBulletedList,
  MenuButtonEditLink,
  MenuButtonImageUpload,
  MenuButtonItalic,
  MenuButtonOrderedList,
  MenuButtonRedo,
  MenuButtonStrikethrough,
  MenuButtonUnderline,
  MenuButtonUndo,
  MenuControlsContainer,
  MenuDivider,
  MenuSelectHeading,
  RichTextEditor,
  type RichTextEditorRef,
} from 'mui-tiptap';
import type { Editor } from '@tiptap/core';
import { NodeSelection } from '@tiptap/pm/state';
import { editorExtensions } from './extensions';
import { InsertImageDialog } from './InsertImageDialog';
import { useEmbedImages } from './imageFiles';
import { appendImage } from './urls';
import { LinkMenu } from './LinkMenu';

/** The item count of the Cart block the selection is on (the toolbar's field). */
function selectedCartItems(editor: Editor): number {
  const sel = editor.state.selection;
  const node = sel instanceof NodeSelection ? sel.node : null;
  return node?.type.name === 'cartBlock' ? Number(node.attrs.items) : CART_BLOCK_DEFAULT_ITEMS;
}

export interface RichEditorProps {
  /** HTML. Read when the editor mounts; after that the editor reports changes through onChange. */
  value: string;
  onChange: (html: string) => void;
  /** Accessible name of the editable area. */
  label: string;
  error?: boolean;
  helperText?: string;
  minHeight?: number;
  editorRef?: Ref<RichTextEditorRef>;
}

/**
 * The template editor: mui-tiptap with bold/italic/underline/strike, headings 1–6, lists, indent levels
 * 1–8, links (http, https, mailto, tel; the link form says what is wrong with any other), the Insert Image dialog (appends at the end) and images by file
 * (embedded as data URLs), and the Cart block (inserted at the cursor; moved by dragging and deleted like an image;
 * how many items it shows set while it is selected). Lives in the lazily loaded template pages only: tiptap is heavy.
 */
export function RichEditor({ value, onChange, label, error, helperText, minHeight = 260, editorRef }: RichEditorProps) {
  // Every option TipTap's useEditor reads stays the same object across renders (TipTap's React guide): on each
  // render it compares them with the editor's and, on any difference, calls setOptions, which re-applies the view's
  // props and state. The form re-renders this on every keystroke, error and submit; with a fresh editorProps object
  // each time, that re-configuration ran under every click on the toolbar.
  const extensions = useMemo(() => editorExtensions(), []);
  const editorProps = useMemo(
    () => ({ attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } }),
    [label],
  );
  // The content is read once, at mount (see `value`); later values come from the editor itself.
  const [initialContent] = useState(value);
  const [imageDialog, setImageDialog] = useState(false);
  const embed = useEmbedImages();
  const editorHandle = useRef<Editor | null>(null);
  // Latest value and callback for the editor's long-lived handlers.
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };

  function insertAtEnd(src: string, alt: string) {
    // Spec §2: appended to the HTML content itself, after everything else. The editor shows the result
    // without reporting it back as an edit, so HTML it cannot represent stays as written.
    const next = appendImage(latest.current.value, src, alt);
    latest.current.onChange(next);
    editorHandle.current?.commands.setContent(next, { emitUpdate: false });
  }

  return (
    <Box
      sx={{
        '& .ProseMirror': { minHeight, fontSize: 15 },
        // An image that does not load would collapse to nothing: keep a visible, selectable box.
        '& .ProseMirror img': { maxWidth: '100%', height: 'auto', minWidth: 24, minHeight: 24 },
        // The Cart block shows what it stands for; the shopper's cart replaces it when the email is sent.
        '& .ProseMirror div[data-cart-block]': {
          border: '2px dashed',
          borderColor: 'primary.main',
          borderRadius: 1,
          bgcolor: 'action.hover',
          p: 2,
          my: 1,
          fontWeight: 500,
          cursor: 'grab',
        },
        '& .ProseMirror div[data-cart-block].ProseMirror-selectednode': {
          outline: '3px solid',
          outlineColor: 'primary.main',
        },
        ...(error ? { '& .MuiTiptap-FieldContainer-notchedOutline': { borderColor: 'error.main' } } : {}),
      }}
    >
      <RichTextEditor
        ref={editorRef}
        extensions={extensions}
        content={initialContent}
        onCreate={({ editor }) => {
          editorHandle.current = editor as Editor;
        }}
        onUpdate={({ editor }) => latest.current.onChange(editor.getHTML())}
        editorProps={editorProps}
        renderControls={(editor) => (
          <MenuControlsContainer>
            {/* Kept on one line: the toolbar gains fields when a Cart block is selected, and a wrapped placeholder would move the page. */}
            <MenuSelectHeading
              aria-label="Text style"
              sx={{ minWidth: 132, '& .MuiSelect-select': { whiteSpace: 'nowrap' } }}
            />
            <MenuDivider />
            <MenuButtonBold />
            <MenuButtonItalic />
            <MenuButtonUnderline />
            <MenuButtonStrikethrough />
            <MenuDivider />
            <MenuButtonBulletedList />
            <MenuButtonOrderedList />
            <MenuButton
              tooltipLabel="Indent"
              tooltipShortcutKeys={['mod', ']']}
              IconComponent={IndentIcon}
              disabled={!editor?.can().indent()}
              onClick={() => editor?.chain().focus().indent().run()}
            />
            <MenuButton
              tooltipLabel="Outdent"
              tooltipShortcutKeys={['mod', '[']}
              IconComponent={OutdentIcon}
              disabled={!editor?.can().outdent()}
              onClick={() => editor?.chain().focus().outdent().run()}
            />
            <MenuDivider />
            <MenuButtonEditLink />
            <MenuButton
              tooltipLabel="Insert image from URL"
              IconComponent={ImageIcon}
              disabled={!editor?.isEditable}
              onClick={() => setImageDialog(true)}
            />
            <MenuButtonImageUpload tooltipLabel="Upload image (embedded in the email)" onUploadFiles={embed} />
            <MenuButton
              tooltipLabel="Insert cart block"
              IconComponent={CartIcon}
              disabled={!editor?.isEditable}
              onClick={() => editor?.chain().focus().insertCartBlock().run()}
            />
            {editor?.isActive('cartBlock') && (
              <TextField
                select
                size="small"
                label="Cart items shown"
                // Keyed and read from the selected block itself, so another block's count never lingers here.
                key={editor.state.selection.from}
                value={String(selectedCartItems(editor))}
                onChange={(e) => editor.chain().focus().setCartBlockItems(Number(e.target.value)).run()}
                // As tall as the toolbar's buttons: the field joins it when a block is selected and must not move the page.
                sx={{ width: 150, flex: '0 0 auto', ml: 1, '& .MuiInputBase-input': { py: '3px' } }}
              >
                {Array.from({ length: CART_BLOCK_MAX_ITEMS }, (_, i) => (
                  <MenuItem key={i + 1} value={String(i + 1)}>
                    {i + 1}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <MenuDivider />
            <MenuButtonUndo />
            <MenuButtonRedo />
          </MenuControlsContainer>
        )}
      >
        {() => <LinkMenu />}
      </RichTextEditor>
      {helperText && <FormHelperText error={error}>{helperText}</FormHelperText>}
      <InsertImageDialog open={imageDialog} onClose={() => setImageDialog(false)} onInsert={insertAtEnd} />
    </Box>
  );
}
