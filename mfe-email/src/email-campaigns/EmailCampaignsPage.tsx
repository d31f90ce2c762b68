import { PageHeader } from '@act/ui-kit';

// Placeholder: the Email Campaigns screen is filled in by its own issue.
export default function EmailCampaignsPage() {
  return <PageHeader title="Email Campaigns" />;
}
