import type { Document } from 'mongodb';
import { normEmail, normPhone } from '@act/contracts/src/attribution';
import { anyOf, personOf, type PersonalData } from './privacy';
import { privacyHash } from './privacy-hash';
import { dayOf, purchaseDayId, remindedEntry } from './attribution/days';

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
 * After the contacts in a service's holdings (it finds them by the contacts' addresses and numbers too). The summary's
 * day documents (revenue_days, revenue_contacts) name contacts and purchases the same way and follow.
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
    replace: (doc) => ({ ...doc, ...erasedPurchaseIds(doc), buyerKeys: (doc.buyerKeys as string[]).map(erasedLedgerKey) }),
  },
  {
    // The number each reminded contact got for the summary's day documents: its `_id` holds the contact's name.
    kind: 'revenue_reminded_contacts',
    collection: 'revenue_contacts',
    filter: (_subject, found) => {
      const ids = (found.revenue_touches ?? []).map((t) => remindedEntry((t.funnelId as string | null) ?? null, String(t.who)));
      return ids.length ? { _id: { $in: [...new Set(ids)] } } : null;
    },
    replace: (doc) => {
      const id = String(doc._id);
      const cut = id.lastIndexOf('\n');
      return { ...doc, _id: `${id.slice(0, cut + 1)}${erasedLedgerKey(id.slice(cut + 1))}` };
    },
  },
  {
    // The purchase day documents name each purchase by its record's `_id` (in the purchases and their links): the
    // entries of the person's purchases are written again under the erased id, then the old ones are pulled (two
    // updates: `p` and `l` cannot take $addToSet and $pull in one). Sets, so a second run changes nothing.
    kind: 'revenue_purchase_days',
    collection: 'revenue_days',
    filter: (_subject, found) => {
      const days = (found.revenue_purchases ?? []).map((p) => purchaseDayId(dayOf(p.purchasedAt as Date)));
      return days.length ? { _id: { $in: [...new Set(days)] } } : null;
    },
    erase: (doc, _person, found) => {
      const renamed = new Map<string, string>();
      for (const p of found.revenue_purchases ?? []) {
        const next = erasedPurchaseIds(p)._id;
        if (next !== p._id) renamed.set(String(p._id), next);
      }
      const rewrite = (entries: string[] | undefined) => {
        const old: string[] = [];
        const now: string[] = [];
        for (const e of entries ?? []) {
          const parsed = JSON.parse(e) as unknown[];
          const to = renamed.get(String(parsed[0]));
          if (to === undefined) continue;
          old.push(e);
          now.push(JSON.stringify([to, ...parsed.slice(1)]));
        }
        return { old, now };
      };
      const p = rewrite(doc.p as string[] | undefined);
      const l = rewrite(doc.l as string[] | undefined);
      if (!p.old.length && !l.old.length) return null;
      return [
        { $addToSet: { p: { $each: p.now }, l: { $each: l.now } } },
        { $pull: { p: { $in: p.old }, l: { $in: l.old } } },
      ];
    },
  },
];

/**
 * A purchase record's `_id` and fingerprint after an erase: both start with the buyer's first name (the fingerprint,
 * then the 10-minute slot), which becomes its hash.
 */
function erasedPurchaseIds(doc: Document): { _id: string; fingerprint: string | null } {
  const first = (doc.buyerKeys as string[])[0];
  let fingerprint = (doc.fingerprint as string | null) ?? null;
  let id = String(doc._id);
  if (first && fingerprint?.startsWith(`${first}|`)) {
    const erased = erasedLedgerKey(first) + fingerprint.slice(first.length);
    if (id.startsWith(`${fingerprint}|`)) id = erased + id.slice(fingerprint.length);
    fingerprint = erased;
  }
  return { _id: id, fingerprint };
}
