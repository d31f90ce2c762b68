import { PageHeader } from '@act/ui-kit';

// Placeholder: the Webhook Events screen is filled in by its own issue.
export default function WebhookEventsPage() {
  return <PageHeader title="Webhook Events" />;
}
