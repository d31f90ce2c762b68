import { PageHeader } from '@act/ui-kit';

// Placeholder: the Resend Email Templates screen is filled in by its own issue.
export default function ResendTemplatesPage() {
  return <PageHeader title="Resend Email Templates" />;
}
