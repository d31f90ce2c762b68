import { PageHeader } from '@act/ui-kit';

// Placeholder: the SMS Contacts screen is filled in by its own issue.
export default function SmsContactsPage() {
  return <PageHeader title="SMS Contacts" />;
}
