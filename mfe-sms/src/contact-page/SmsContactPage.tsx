import { useParams } from 'react-router';
import { ContactStory } from '@act/ui-kit/src/ContactStory';

/** `/sms-contacts/:id`: one SMS contact's page, with the person's story across both channels. */
export default function SmsContactPage() {
  const { id } = useParams();
  return <ContactStory side="sms" id={Number(id)} back={{ label: 'SMS Contacts', to: '/sms-contacts' }} />;
}
