import { useRef, useState } from 'react';
import { useFormik } from 'formik';
import { Box, Grid, InputAdornment, Tab, Tabs, TextField } from '@mui/material';
import type { RichTextEditorRef } from 'mui-tiptap';
import type { EmailTemplate } from '../email-campaigns/api';
import { RichEditor } from '../rich-editor/RichEditor';
import { VariableChips } from '../rich-editor/VariableChips';
import { formValuesOf, templateFormSchema, type TemplateFormValues } from './rules';
import { FormDialogFrame, FormDialogSurface, formikError, formikField } from '@act/ui-kit/src/FormDialog';
import { ActiveSwitch } from '../shared/FormDialogParts';
import { ContactPreview } from '../preview/ContactPreview';
import type { PreviewChoice } from '@act/ui-kit/src/Preview/PreviewContactPicker';

export interface TemplateDialogProps {
  open: boolean;
  /** null: a new template. */
  editing: EmailTemplate | null;
  /** The campaign's templates (the defaults of a new one follow the last). */
  siblings: EmailTemplate[] | undefined;
  onClose: () => void;
  /** Resolves true when saved (the dialog then closes). */
  onSubmit: (values: TemplateFormValues) => Promise<boolean>;
}

type ContentTab = 'editor' | 'html' | 'preview';

/**
 * Create / edit a campaign template: fields of spec §5 and the content in a rich editor or as raw HTML, and a preview
 * of it as a chosen contact (or sample data) would get it.
 */
export function TemplateDialog({ open, editing, siblings, onClose, onSubmit }: TemplateDialogProps) {
  return (
    // Not dismissible: only Cancel closes it (a click outside would lose a long email).
    <FormDialogSurface open={open} maxWidth="md" titleId="template-dialog-title">
      {/* A new key per opening starts the form from the template being edited (or the defaults). */}
      {open && (
        <TemplateForm
          key={editing?.id ?? 'new'}
          editing={editing}
          siblings={siblings}
          onClose={onClose}
          onSubmit={onSubmit}
        />
      )}
    </FormDialogSurface>
  );
}

function TemplateForm({ editing, siblings, onClose, onSubmit }: Omit<TemplateDialogProps, 'open'>) {
  const [tab, setTab] = useState<ContentTab>('editor');
  const [choice, setChoice] = useState<PreviewChoice | null>(null);
  const form = useFormik<TemplateFormValues>({
    initialValues: formValuesOf(editing, siblings),
    validationSchema: templateFormSchema,
    onSubmit: async (values) => {
      if (await onSubmit(values)) onClose();
    },
  });
  const busy = form.isSubmitting;
  const contentError = formikError(form, 'html_content');
  const editorRef = useRef<RichTextEditorRef>(null);
  const htmlRef = useRef<HTMLTextAreaElement>(null);

  // A variable goes where the cursor is: in the rich text, or in the raw HTML on that tab.
  function insertVariable(variable: string) {
    const area = htmlRef.current;
    if (tab === 'html' && area) {
      const { selectionStart: from, selectionEnd: to, value } = area;
      void form.setFieldValue('html_content', `${value.slice(0, from)}${variable}${value.slice(to)}`);
      // The caret after what was put in, once the new value is rendered, so the next chip or keystroke follows it.
      const caret = from + variable.length;
      requestAnimationFrame(() => {
        area.focus();
        area.setSelectionRange(caret, caret);
      });
      return;
    }
    editorRef.current?.editor?.chain().focus().insertContent(variable).run();
  }

  return (
    <FormDialogFrame
      titleId="template-dialog-title"
      title={editing ? 'Edit Template' : 'Create Template'}
      dividers
      onSubmit={form.handleSubmit}
      onCancel={onClose}
      busy={busy}
      submitLabel={editing ? 'Update Template' : 'Create Template'}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...formikField(form, 'name')}
            disabled={busy}
            label="Template Name"
            required
            fullWidth
            autoFocus
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...formikField(form, 'from_name')} disabled={busy} label="From Name" required fullWidth />
        </Grid>
        <Grid size={12}>
          <TextField
            {...formikField(form, 'subject', 'Variables work here too: {{contactEmail}}')}
            disabled={busy}
            label="Subject"
            required
            fullWidth
          />
        </Grid>
        <Grid size={{ xs: 6, sm: 4 }}>
          <TextField
            {...formikField(form, 'template_order', 'Position in the sequence')}
            disabled={busy}
            label="Order"
            type="number"
            fullWidth
            slotProps={{ htmlInput: { min: 1, step: 1 } }}
          />
        </Grid>
        <Grid size={{ xs: 6, sm: 4 }}>
          <TextField
            {...formikField(form, 'delay_hours', 'After the previous email')}
            disabled={busy}
            label="Delay"
            type="number"
            fullWidth
            slotProps={{
              htmlInput: { min: 0, step: 1 },
              input: { endAdornment: <InputAdornment position="end">hours</InputAdornment> },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }} sx={{ display: 'flex', alignItems: 'center' }}>
          <ActiveSwitch checked={form.values.active} onChange={form.handleChange} disabled={busy} />
        </Grid>
      </Grid>

      <Box sx={{ mt: 2.5 }}>
        <Tabs
          value={tab}
          onChange={(_e, value: ContentTab) => setTab(value)}
          aria-label="Email content"
          sx={{ minHeight: 40, mb: 1.5, '& .MuiTab-root': { minHeight: 40 } }}
        >
          <Tab value="editor" label="Rich Text Editor" />
          <Tab value="html" label="HTML" />
          <Tab value="preview" label="Preview" />
        </Tabs>
        {tab === 'preview' ? (
          <ContactPreview subject={form.values.subject} html={form.values.html_content} templateId={editing?.id ?? null} choice={choice} onChoice={setChoice} />
        ) : tab === 'editor' ? (
          <RichEditor
            editorRef={editorRef}
            label="Email content"
            value={form.values.html_content}
            onChange={(html) => void form.setFieldValue('html_content', html, form.submitCount > 0)}
            error={Boolean(contentError)}
            helperText={contentError}
          />
        ) : (
          <TextField
            name="html_content"
            inputRef={htmlRef}
            value={form.values.html_content}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            disabled={busy}
            multiline
            minRows={12}
            maxRows={24}
            fullWidth
            error={Boolean(contentError)}
            helperText={
              contentError ??
              'Inline styles and tables written here are kept as long as the rich editor is not used to change them.'
            }
            slotProps={{
              htmlInput: {
                'aria-label': 'HTML content',
                spellCheck: false,
                sx: { fontFamily: 'monospace', fontSize: 13 },
              },
            }}
          />
        )}
        {tab !== 'preview' && <VariableChips onInsert={insertVariable} />}
      </Box>
    </FormDialogFrame>
  );
}
