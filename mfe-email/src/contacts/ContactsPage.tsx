import { PageHeader } from '@act/ui-kit';

// Placeholder: the Contacts screen is filled in by its own issue.
export default function ContactsPage() {
  return <PageHeader title="Contacts" />;
}
