import { useRef, useState } from 'react';
import { useFormik } from 'formik';
import { Box, Grid, Tab, Tabs, TextField } from '@mui/material';
import type { RichTextEditorRef } from 'mui-tiptap';
import type { EmailTemplate } from '../email-campaigns/api';
import { RichEditor } from '../rich-editor/RichEditor';
import { ContactPreview } from '../preview/ContactPreview';
import type { PreviewChoice } from '@act/ui-kit/src/Preview/PreviewContactPicker';
import { VariableChips } from '../rich-editor/VariableChips';
import { legacyTemplateSchema, legacyValuesOf, type LegacyTemplateValues } from './templateForm';
import { FormDialogFrame, FormDialogSurface, formikError, formikField } from '@act/ui-kit/src/FormDialog';
import { ActiveSwitch } from '../shared/FormDialogParts';

export interface LegacyTemplateDialogProps {
  open: boolean;
  editing: EmailTemplate | null;
  onClose: () => void;
  onSubmit: (values: LegacyTemplateValues) => Promise<boolean>;
}

/** 'Create Template' / 'Edit Template' of the standalone page: fields, Editor and Preview tabs, variables. */
export function LegacyTemplateDialog({ open, editing, onClose, onSubmit }: LegacyTemplateDialogProps) {
  return (
    <FormDialogSurface open={open} maxWidth="md" titleId="legacy-template-title">
      {open && (
        <LegacyTemplateForm key={editing?.id ?? 'new'} editing={editing} onClose={onClose} onSubmit={onSubmit} />
      )}
    </FormDialogSurface>
  );
}

function LegacyTemplateForm({ editing, onClose, onSubmit }: Omit<LegacyTemplateDialogProps, 'open'>) {
  const [tab, setTab] = useState<'editor' | 'preview'>('editor');
  const [choice, setChoice] = useState<PreviewChoice | null>(null);
  const editorRef = useRef<RichTextEditorRef>(null);
  const form = useFormik<LegacyTemplateValues>({
    initialValues: legacyValuesOf(editing),
    validationSchema: legacyTemplateSchema,
    onSubmit: async (values) => {
      if (await onSubmit(values)) onClose();
    },
  });
  const busy = form.isSubmitting;
  // The three text fields: required, disabled while saving.
  const field = (name: 'name' | 'subject' | 'from_name') => ({
    ...formikField(form, name),
    disabled: busy,
    fullWidth: true,
    required: true,
  });
  const contentError = formikError(form, 'html_content');

  function insertVariable(variable: string) {
    if (tab !== 'editor') setTab('editor');
    editorRef.current?.editor?.chain().focus().insertContent(variable).run();
  }

  return (
    <FormDialogFrame
      titleId="legacy-template-title"
      title={editing ? 'Edit Template' : 'Create Template'}
      dividers
      onSubmit={form.handleSubmit}
      onCancel={onClose}
      busy={busy}
      submitLabel={editing ? 'Update Template' : 'Create Template'}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('name')} label="Template Name" autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('from_name')} label="From Name" />
        </Grid>
        <Grid size={{ xs: 12, sm: 8 }}>
          <TextField {...field('subject')} label="Subject Line" />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }} sx={{ display: 'flex', alignItems: 'center' }}>
          <ActiveSwitch checked={form.values.active} onChange={form.handleChange} disabled={busy} />
        </Grid>
      </Grid>
      <Box sx={{ mt: 2.5 }}>
        <Tabs
          value={tab}
          onChange={(_e, value) => setTab(value)}
          aria-label="Template content"
          sx={{ minHeight: 40, mb: 1.5, '& .MuiTab-root': { minHeight: 40 } }}
        >
          <Tab value="editor" label="Editor" />
          <Tab value="preview" label="Preview" />
        </Tabs>
        {tab === 'editor' ? (
          <RichEditor
            editorRef={editorRef}
            label="HTML content"
            value={form.values.html_content}
            onChange={(html) => void form.setFieldValue('html_content', html, form.submitCount > 0)}
            error={Boolean(contentError)}
            helperText={contentError}
          />
        ) : (
          <ContactPreview
            subject={form.values.subject}
            html={form.values.html_content}
            choice={choice}
            onChoice={setChoice}
            height={420}
          />
        )}
        <VariableChips onInsert={insertVariable} note="The preview fills them with the chosen contact's data or sample values." />
      </Box>
    </FormDialogFrame>
  );
}
