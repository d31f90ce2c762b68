import type { PersonalData } from '../privacy';
import { erasedContactId } from '../privacy-hash';

/**
 * A person's tracked links (both services' `tracked_links`, by the contacts found): listed by an export; an erase
 * keeps the rows (the results count their clicks) without the sender's contact id or the checkout link, so the link
 * then answers "not valid".
 */
export const TRACKED_LINK_HOLDINGS: PersonalData = {
  kind: 'tracked_links',
  collection: 'tracked_links',
  filter: (_s, found) => (found.contacts?.length ? { contact_ref: { $in: found.contacts.map((c) => c.id) } } : null),
  erase: (doc) => ({ $set: { contact_id: erasedContactId(String(doc.contact_id)), target: null } }),
};
