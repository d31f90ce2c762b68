import { PageHeader } from '@act/ui-kit';

// Placeholder: the SMS Webhook Events screen is filled in by its own issue.
export default function SmsWebhookEventsPage() {
  return <PageHeader title="SMS Webhook Events" />;
}
