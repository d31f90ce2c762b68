import { useEffect, useRef, useState } from 'react';
import { DialogContentText, Stack, TextField } from '@mui/material';
import SendIcon from '@mui/icons-material/SendOutlined';
import { apiRequest, serverMessage, useToast } from '@act/ui-kit';
import { FormDialog } from '@act/ui-kit/src/FormDialog';
import type { EmailTemplate, TestEmailResponse } from '../email-campaigns/api';
import { TEMPLATES } from '../shared/keys';
import { PREVIEW_CONTACTS } from '../preview/ContactPreview';
import { choiceFields, PreviewContactPicker, type PreviewChoice } from '@act/ui-kit/src/Preview/PreviewContactPicker';

export const TEST_EMAIL_FALLBACK = 'Failed to send test email. Please check your Resend API configuration.';

/**
 * The toast text of a sent test (spec §8): that it was sent (the service's own sentence, which also warns when
 * the address is on the unsubscribe list), the message id when there is one, and to check the inbox.
 */
export function testSentText(email: string, res?: Partial<TestEmailResponse> | null): string {
  const sent = (res?.message?.trim() || `Test email sent to ${email}`).replace(/\.?$/, '.');
  return `${sent}${res?.messageId ? ` Message ID: ${res.messageId}` : ''} Please check your inbox.`;
}

export interface TestEmailDialogProps {
  template: EmailTemplate | null;
  onClose: () => void;
}

/** 'Send Test Email' (spec §2, §4, §5, §8): sends only with an address entered; cannot close while sending. */
export function TestEmailDialog({ template, onClose }: TestEmailDialogProps) {
  const { toast } = useToast();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [choice, setChoice] = useState<PreviewChoice>({ sample: true });
  const open = template !== null;
  // The last template stays named while the dialog fades out.
  const last = useRef(template);
  if (template) last.current = template;
  const shown = last.current;

  useEffect(() => {
    if (open) {
      setEmail('');
      setError(null);
      setChoice({ sample: true });
    }
  }, [open, template?.id]);

  const address = email.trim();

  async function send() {
    if (!template || !address || sending) return;
    setSending(true);
    setError(null);
    try {
      const res = await apiRequest<TestEmailResponse>('POST', `${TEMPLATES}/${template.id}/test`, {
        testEmail: address,
        ...(choice && 'contactId' in choice ? { contact_id: choiceFields(choice).contact_id } : {}),
      });
      if (res && typeof res === 'object' && res.success === false) throw new Refused(res.message);
      toast({ title: 'Test email sent', description: testSentText(address, res) });
      onClose();
    } catch (err) {
      const message =
        err instanceof Refused ? err.message || TEST_EMAIL_FALLBACK : serverMessage(err, TEST_EMAIL_FALLBACK);
      setError(message);
      toast({ title: 'Error sending test email', description: message, variant: 'destructive' });
    } finally {
      setSending(false);
    }
  }

  return (
    <FormDialog
      open={open}
      maxWidth="xs"
      title="Send Test Email"
      onSubmit={() => void send()}
      onCancel={onClose}
      busy={sending}
      submitLabel={sending ? 'Sending...' : 'Send Test'}
      submitIcon={<SendIcon />}
      submitDisabled={!address}
      error={error}
      errorTestId="test-email-error"
    >
      <Stack spacing={2}>
        <DialogContentText>
          Send &ldquo;{shown?.name}&rdquo; to an address of your choice to see it as a recipient would.
        </DialogContentText>
        <TextField
          label="Email Address"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="you@example.com"
          autoFocus
          fullWidth
          disabled={sending}
        />
        <PreviewContactPicker
          endpoint={PREVIEW_CONTACTS}
          value={choice}
          onChange={setChoice}
          searchBy="email"
          label="With the data of"
          disabled={sending}
        />
      </Stack>
    </FormDialog>
  );
}

/** A 2xx answer that says `success: false`. */
class Refused extends Error {}
