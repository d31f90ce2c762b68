import { useEffect, useState } from 'react';
import { Alert, Box, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { apiRequest, serverMessage } from '@act/ui-kit';
import { choiceFields, PreviewContactPicker, type PreviewChoice } from '@act/ui-kit/src/Preview/PreviewContactPicker';
import type { EmailPreview } from '@act/contracts/src/template-preview';
import { previewDocument } from '../rich-editor/HtmlPreview';
import { TEMPLATES } from '../shared/keys';

export const PREVIEW_CONTACTS = `${TEMPLATES}/preview/contacts`;
const WIDTHS = [600, 320] as const;

/** A sent email is a whole document (a Cart block makes one); a fragment gets the preview's frame around it. */
function frameDocument(html: string): string {
  return /^\s*<!doctype/i.test(html) ? html : previewDocument(html);
}

export interface ContactPreviewProps {
  subject: string;
  html: string;
  /** The saved template previewed: its step's code and link as the send gives them; null: a new template. */
  templateId?: number | null;
  /** The contact (or sample data) chosen, for a test send with the same data. */
  choice: PreviewChoice | null;
  onChoice: (choice: PreviewChoice) => void;
  height?: number;
}

/**
 * The template as one contact would get it, written by the service's composer (the one that sends): Cart blocks,
 * variables, that contact's link; at a phone's width or the email's own. The frame runs nothing (sandboxed).
 */
export function ContactPreview({ subject, html, templateId = null, choice, onChoice, height = 520 }: ContactPreviewProps) {
  const [width, setWidth] = useState<(typeof WIDTHS)[number]>(600);
  const [preview, setPreview] = useState<EmailPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!choice || !html.trim()) return;
    let live = true;
    const timer = setTimeout(() => {
      apiRequest<EmailPreview>('POST', `${TEMPLATES}/preview`, {
        subject,
        html_content: html,
        ...(templateId ? { template_id: templateId } : {}),
        ...choiceFields(choice),
      })
        .then((res) => {
          if (!live) return;
          setPreview(res);
          setError(null);
        })
        .catch((err) => live && setError(serverMessage(err, 'The preview could not be written')));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [subject, html, templateId, choice]);

  return (
    <Stack spacing={1.5} data-testid="contact-preview">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <PreviewContactPicker endpoint={PREVIEW_CONTACTS} value={choice} onChange={onChoice} searchBy="email" />
        <ToggleButtonGroup
          size="small"
          exclusive
          value={width}
          onChange={(_e, w: (typeof WIDTHS)[number] | null) => w && setWidth(w)}
          aria-label="Preview width"
        >
          {WIDTHS.map((w) => (
            <ToggleButton key={w} value={w} aria-label={`${w} px wide`}>
              {w} px
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {preview?.incentive_note && (
        <Alert severity="info" data-testid="preview-incentive-note">
          This contact’s email would be {preview.incentive_note}.
        </Alert>
      )}
      {preview && (
        <>
          <Typography variant="body2" data-testid="preview-subject">
            <strong>Subject:</strong> {preview.subject}
          </Typography>
          <Box sx={{ overflowX: 'auto', bgcolor: 'grey.100', p: 1, borderRadius: 1 }}>
            <Box
              component="iframe"
              title="Email preview with contact data"
              sandbox=""
              srcDoc={frameDocument(preview.html)}
              referrerPolicy="no-referrer"
              sx={{ display: 'block', width, maxWidth: 'none', height, border: 0, bgcolor: '#fff', mx: 'auto' }}
            />
          </Box>
        </>
      )}
    </Stack>
  );
}
