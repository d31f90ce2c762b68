import { PageHeader } from '@act/ui-kit';

// Placeholder: the Webhook Integrations screen is filled in by its own issue.
export default function WebhookIntegrationsPage() {
  return <PageHeader title="Webhook Integrations" />;
}
