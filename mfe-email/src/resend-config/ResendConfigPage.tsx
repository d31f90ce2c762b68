import { PageHeader } from '@act/ui-kit';

// Placeholder: the Resend Config screen is filled in by its own issue.
export default function ResendConfigPage() {
  return <PageHeader title="Resend Config" />;
}
