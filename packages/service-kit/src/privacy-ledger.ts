import type { Document } from 'mongodb';
import { normEmail, normPhone } from '@act/contracts/src/attribution';
import { anyOf, personOf, type PersonalData } from './privacy';
import { privacyHash } from './privacy-hash';

/** A ledger key (`e:address`, `p:digits`, `c:funnel:contact`) as kept after an erase: its salted hash. */
export function erasedLedgerKey(key: string): string {
  return key.startsWith('h:') ? key : `h:${privacyHash('key', key)}`;
}

/** The ledger keys a person goes by (attribution's buyerKeys of their addresses and numbers). */
function ledgerKeys(emails: string[], phones: string[]): string[] {
  return [
    ...emails
      .map((e) => normEmail(e))
      .filter(Boolean)
      .map((e) => `e:${e}`),
    ...phones
      .map((p) => normPhone(p))
      .filter(Boolean)
      .map((p) => `p:${p}`),
  ];
}

const byKeys =
  (field: string) => (subject: Parameters<PersonalData['filter']>[0], found: Record<string, Document[]>) => {
    const p = personOf(subject, found);
    return anyOf(ledgerKeys(p.emails, p.phones), (k) => ({ [field]: k }));
  };

/**
 * The attribution ledger's records of one person (revenue_touches, revenue_purchases: each service keeps both). On
 * erase only the names change, each to its salted hash: a reminder and a purchase of the same person still link,
 * "reminded" still counts one person once, and amounts, currencies and dates stay, so revenue sums are unchanged.
 * After the contacts in a service's holdings (it finds them by the contacts' addresses and numbers too).
 */
export const LEDGER_HOLDINGS: PersonalData[] = [
  {
    kind: 'revenue_touches',
    collection: 'revenue_touches',
    filter: byKeys('keys'),
    erase: (doc) => ({
      $set: { keys: (doc.keys as string[]).map(erasedLedgerKey), who: erasedLedgerKey(String(doc.who)) },
    }),
  },
  {
    kind: 'revenue_purchases',
    collection: 'revenue_purchases',
    filter: byKeys('buyerKeys'),
    // The record's _id starts with its fingerprint, which starts with the buyer's first name: a new record in its place.
    replace: (doc) => {
      const keys = doc.buyerKeys as string[];
      const first = keys[0];
      let fingerprint = (doc.fingerprint as string | null) ?? null;
      let id = doc._id as string;
      if (first && fingerprint?.startsWith(`${first}|`)) {
        const erased = erasedLedgerKey(first) + fingerprint.slice(first.length);
        if (id.startsWith(`${fingerprint}|`)) id = erased + id.slice(fingerprint.length);
        fingerprint = erased;
      }
      return { ...doc, _id: id, fingerprint, buyerKeys: keys.map(erasedLedgerKey) };
    },
  },
];
