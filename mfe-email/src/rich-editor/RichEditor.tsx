import { useMemo, useRef, useState, type Ref } from 'react';
import { Box, FormHelperText } from '@mui/material';
import IndentIcon from '@mui/icons-material/FormatIndentIncrease';
import OutdentIcon from '@mui/icons-material/FormatIndentDecrease';
import ImageIcon from '@mui/icons-material/InsertPhotoOutlined';
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
import { editorExtensions } from './extensions';
import { InsertImageDialog } from './InsertImageDialog';
import { useEmbedImages } from './imageFiles';
import { appendImage } from './urls';
import { LinkMenu } from './LinkMenu';

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
 * (embedded as data URLs). Lives in the lazily loaded template pages only: tiptap is heavy.
 */
export function RichEditor({ value, onChange, label, error, helperText, minHeight = 260, editorRef }: RichEditorProps) {
  const extensions = useMemo(() => editorExtensions(), []);
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
        ...(error ? { '& .MuiTiptap-FieldContainer-notchedOutline': { borderColor: 'error.main' } } : {}),
      }}
    >
      <RichTextEditor
        ref={editorRef}
        extensions={extensions}
        content={value}
        onCreate={({ editor }) => {
          editorHandle.current = editor as Editor;
        }}
        onUpdate={({ editor }) => latest.current.onChange(editor.getHTML())}
        editorProps={{ attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } }}
        renderControls={(editor) => (
          <MenuControlsContainer>
            <MenuSelectHeading aria-label="Text style" />
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
