import { PageHeader } from '@act/ui-kit';

// Placeholder: the SMS Campaigns screen is filled in by its own issue.
export default function SmsCampaignsPage() {
  return <PageHeader title="SMS Campaigns" />;
}
