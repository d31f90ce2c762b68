import { PageHeader } from '@act/ui-kit';

// Placeholder: the SMS Logs screen is filled in by its own issue.
export default function SmsLogsPage() {
  return <PageHeader title="SMS Logs" />;
}
