import { PageHeader } from '@act/ui-kit';

// Placeholder: the Email Templates screen is filled in by its own issue.
export default function EmailTemplatesPage() {
  return <PageHeader title="Email Templates" />;
}
