import { PageHeader } from '@act/ui-kit';

// Placeholder: the SMS Webhook Integrations screen is filled in by its own issue.
export default function SmsWebhooksPage() {
  return <PageHeader title="SMS Webhook Integrations" />;
}
