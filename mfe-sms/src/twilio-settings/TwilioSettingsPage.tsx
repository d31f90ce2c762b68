import useSWR from 'swr';
import { Box, Chip, Stack } from '@mui/material';
import LinkIcon from '@mui/icons-material/LinkOutlined';
import { ErrorCard, errorMessage, Loading, PageHeader } from '@act/ui-kit';
import type { TwilioConfigResponse } from '@act/contracts/src/sms-api';
import { SMS_KEYS } from '../shared/keys';
import { CopyField, Section } from './sections';
import { TwilioConfigForm } from './TwilioConfigForm';
import { TestSmsCard } from './TestSmsCard';

/** /twilio-settings: the text-message provider's settings (spec section 2). */
export default function TwilioSettingsPage() {
  const config = useSWR<TwilioConfigResponse>(SMS_KEYS.twilioConfig);
  // The spec shows these two inbound URLs for reference, on this site's origin.
  const origin = window.location.origin;

  let main;
  if (config.error && !config.data) {
    main = (
      <ErrorCard
        title="Could not load the Twilio configuration"
        message={errorMessage(config.error)}
        onRetry={() => config.mutate()}
      />
    );
  } else if (!config.data) {
    main = <Loading />;
  } else {
    main = <TwilioConfigForm config={config.data} />;
  }

  return (
    <Box>
      <PageHeader
        title="Twilio SMS Settings"
        subtitle="Sender, delivery tracking and quiet hours of the SMS side."
        actions={
          config.data && (
            <Chip
              label={config.data.configured ? 'Credentials configured' : 'Credentials missing'}
              color={config.data.configured ? 'success' : 'warning'}
              variant="outlined"
            />
          )
        }
      />
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
          alignItems: 'start',
        }}
      >
        <Box>{main}</Box>
        <Stack spacing={3}>
          <Section
            title="Webhook URLs"
            description="Give these to your funnel and to Twilio."
            icon={<LinkIcon fontSize="small" />}
          >
            <Stack spacing={2.5}>
              <CopyField
                label="Funnel contact events"
                value={`${origin}/api/sms/webhook`}
                helperText="Funnels post contact and purchase events here."
              />
              <CopyField
                label="Delivery status callbacks"
                value={`${origin}/api/twilio/webhooks`}
                helperText="Twilio posts delivery updates and replies here."
              />
            </Stack>
          </Section>
          <TestSmsCard />
        </Stack>
      </Box>
    </Box>
  );
}
