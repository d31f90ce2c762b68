import { useFormik } from 'formik';
import { Box, Stack, TextField, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/SendOutlined';
import { apiRequest, errorMessage } from '@act/ui-kit';
import { FormDialog, formikField } from '@act/ui-kit/src/FormDialog';
import {
  renderSmsTemplate,
  SAMPLE_PLACEHOLDER_VALUES,
  templateTestSchema,
  type SmsTemplate,
} from '@act/contracts/src/sms-api';
import { isListKey, SMS_KEYS } from '../shared/keys';
import { useState } from 'react';
import { choiceFields, PreviewContactPicker, type PreviewChoice } from '@act/ui-kit/src/Preview/PreviewContactPicker';
import { PREVIEW_CONTACTS } from '../preview/SmsContactPreview';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';

export interface TestSmsDialogProps {
  open: boolean;
  template: SmsTemplate | null;
  onClose: () => void;
}

export function TestSmsDialog({ open, template, onClose }: TestSmsDialogProps) {
  const notify = useNotify();
  const refetch = useRefetch();
  const [choice, setChoice] = useState<PreviewChoice>({ sample: true });
  const form = useFormik({
    initialValues: { testPhone: '' },
    validationSchema: templateTestSchema,
    onSubmit: async ({ testPhone }) => {
      if (!template) {
        notify.error('No template selected for testing');
        return;
      }
      try {
        await apiRequest('POST', `${SMS_KEYS.templates}/${template.id}/test`, {
          testPhone: testPhone.trim(),
          ...('contactId' in choice ? { contact_id: choiceFields(choice).contact_id } : {}),
        });
        notify.success('Test SMS sent successfully');
        // A test send is logged like any other message.
        await refetch.forget(isListKey(SMS_KEYS.logs));
        onClose();
      } catch (err) {
        notify.error(`Failed to send test SMS: ${errorMessage(err)}`);
      }
    },
  });
  const busy = form.isSubmitting;

  return (
    <FormDialog
      open={open}
      maxWidth="xs"
      title="Send Test SMS"
      onSubmit={form.handleSubmit}
      onCancel={onClose}
      busy={busy}
      submitLabel="Send Test"
      submitIcon={<SendIcon />}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {template && (
          <Box sx={{ p: 1.5, borderRadius: 2, bgcolor: '#f1f5f9', border: 1, borderColor: 'divider' }}>
            <Typography variant="caption" color="textSecondary" sx={{ display: 'block', fontWeight: 600, mb: 0.5 }}>
              {template.name}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {renderSmsTemplate(template.message, SAMPLE_PLACEHOLDER_VALUES)}
            </Typography>
          </Box>
        )}
        <TextField
          label="Phone Number"
          type="tel"
          required
          autoFocus
          placeholder="+15551234567"
          {...formikField(form, 'testPhone', 'Placeholders are filled with sample values, or the chosen contact’s data.')}
        />
        <PreviewContactPicker
          endpoint={PREVIEW_CONTACTS}
          value={choice}
          onChange={setChoice}
          searchBy="phone (with country code) or email"
          label="With the data of"
          disabled={busy}
        />
      </Stack>
    </FormDialog>
  );
}
