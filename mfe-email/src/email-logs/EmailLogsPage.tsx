import { PageHeader } from '@act/ui-kit';

// Placeholder: the Email Logs screen is filled in by its own issue.
export default function EmailLogsPage() {
  return <PageHeader title="Email Logs" />;
}
