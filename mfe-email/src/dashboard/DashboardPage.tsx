import { PageHeader } from '@act/ui-kit';

// Placeholder: the Dashboard screen is filled in by its own issue.
export default function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
