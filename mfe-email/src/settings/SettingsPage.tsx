import { PageHeader } from '@act/ui-kit';

// Placeholder: the Settings screen is filled in by its own issue.
export default function SettingsPage() {
  return <PageHeader title="Settings" />;
}
