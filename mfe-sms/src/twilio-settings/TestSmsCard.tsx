import { useFormik } from 'formik';
import { Button, CircularProgress, Stack, TextField } from '@mui/material';
import SendIcon from '@mui/icons-material/SendOutlined';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import { apiRequest, errorMessage } from '@act/ui-kit';
import { DEFAULT_TEST_MESSAGE, twilioTestSmsSchema } from '@act/contracts/src/sms-api';
import { isListKey, SMS_KEYS } from '../shared/keys';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';
import { Section } from './sections';

/** Sends one message now with the saved settings (no blackout: an operator is testing). */
export function TestSmsCard() {
  const notify = useNotify();
  const refetch = useRefetch();
  const form = useFormik({
    initialValues: { test_phone: '', test_message: DEFAULT_TEST_MESSAGE },
    validationSchema: twilioTestSmsSchema,
    onSubmit: async (v) => {
      try {
        await apiRequest('POST', '/api/twilio/test-sms', {
          test_phone: v.test_phone.trim(),
          test_message: v.test_message.trim(),
        });
        notify.success('Test SMS sent successfully');
        await refetch.forget(isListKey(SMS_KEYS.logs));
      } catch (err) {
        notify.error(`Failed to send test SMS: ${errorMessage(err)}`);
      }
    },
  });
  const err = (name: 'test_phone' | 'test_message') =>
    form.touched[name] || form.submitCount > 0 ? form.errors[name] : undefined;
  const busy = form.isSubmitting;

  return (
    <Section
      title="Send Test SMS"
      description="Check the whole path with a real message."
      icon={<SmsIcon fontSize="small" />}
    >
      <form onSubmit={form.handleSubmit} noValidate aria-label="Send Test SMS">
        <Stack spacing={2.5}>
          <TextField
            label="Test Phone Number"
            name="test_phone"
            type="tel"
            required
            placeholder="+15551234567"
            value={form.values.test_phone}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={!!err('test_phone')}
            helperText={err('test_phone') ?? ' '}
          />
          <TextField
            label="Test Message"
            name="test_message"
            required
            multiline
            minRows={3}
            value={form.values.test_message}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={!!err('test_message')}
            helperText={err('test_message') ?? ' '}
          />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button
              type="submit"
              variant="contained"
              disabled={busy}
              startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <SendIcon />}
            >
              Send Test SMS
            </Button>
          </Stack>
        </Stack>
      </form>
    </Section>
  );
}
