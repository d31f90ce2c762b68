import { PageHeader } from '@act/ui-kit';

// Placeholder: the SMS Statistics screen is filled in by its own issue.
export default function SmsStatsPage() {
  return <PageHeader title="SMS Statistics" />;
}
