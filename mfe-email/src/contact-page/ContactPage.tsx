import { useParams } from 'react-router';
import { ContactStory } from '@act/ui-kit/src/ContactStory';

/** `/contacts/:id`: one email contact's page, with the person's story across both channels. */
export default function ContactPage() {
  const { id } = useParams();
  return <ContactStory side="email" id={Number(id)} back={{ label: 'Contacts', to: '/contacts' }} />;
}
