import { PageHeader } from '@act/ui-kit';

// Placeholder: the Twilio SMS Settings screen is filled in by its own issue.
export default function TwilioSettingsPage() {
  return <PageHeader title="Twilio SMS Settings" />;
}
