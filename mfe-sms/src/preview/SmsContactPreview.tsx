import { useEffect, useState } from 'react';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { apiRequest, errorMessage } from '@act/ui-kit';
import { choiceFields, PreviewContactPicker, type PreviewChoice } from '@act/ui-kit/src/Preview/PreviewContactPicker';
import type { SmsPreview } from '@act/contracts/src/template-preview';
import { SMS_KEYS } from '../shared/keys';

export const PREVIEW_CONTACTS = `${SMS_KEYS.templates}/preview/contacts`;

export interface SmsContactPreviewProps {
  message: string;
  /** The saved template previewed: its step's code and link as the send gives them; null: a new template. */
  templateId?: number | null;
  choice: PreviewChoice | null;
  onChoice: (choice: PreviewChoice) => void;
}

/**
 * The message as one contact would get it, written by the service's renderer (the one that sends): variables, that
 * contact's link, the first item's name shortened past the template's segments; with the segments carriers bill.
 */
export function SmsContactPreview({ message, templateId = null, choice, onChoice }: SmsContactPreviewProps) {
  const [preview, setPreview] = useState<SmsPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!choice || !message.trim()) {
      setPreview(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      apiRequest<SmsPreview>('POST', `${SMS_KEYS.templates}/preview`, { message, ...(templateId ? { template_id: templateId } : {}), ...choiceFields(choice) })
        .then((res) => {
          if (!live) return;
          setPreview(res);
          setError(null);
        })
        .catch((err) => live && setError(`The preview could not be written: ${errorMessage(err)}`));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [message, templateId, choice]);

  return (
    <Box sx={{ mt: 1.5, p: 1.5, borderRadius: 2, bgcolor: '#f1f5f9', border: 1, borderColor: 'divider' }} data-testid="sms-contact-preview">
      <Stack spacing={1}>
        <PreviewContactPicker endpoint={PREVIEW_CONTACTS} value={choice} onChange={onChoice} searchBy="phone (with country code) or email" />
        {error && <Alert severity="error">{error}</Alert>}
        {preview?.incentive_note && (
          <Alert severity="info" data-testid="preview-incentive-note">
            This contact’s text would be {preview.incentive_note}.
          </Alert>
        )}
        {preview && (
          <>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="sms-preview-text">
              {preview.message}
            </Typography>
            <Typography variant="caption" color={preview.segments > preview.template_segments ? 'warning.main' : 'textSecondary'}>
              {preview.characters} characters, {preview.segments} {preview.segments === 1 ? 'segment' : 'segments'} ({preview.encoding})
              {preview.shortened ? '; the first item’s name was shortened to keep the template’s segments' : ''}.
            </Typography>
          </>
        )}
      </Stack>
    </Box>
  );
}
