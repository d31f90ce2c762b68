import { PageHeader } from '@act/ui-kit';

// Placeholder: the unsubscribe management screen (admin only) is filled in by its own issue.
export default function UnsubscribeManagementPage() {
  return <PageHeader title="Unsubscribe Management" />;
}
