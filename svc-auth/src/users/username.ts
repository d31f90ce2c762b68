import confusables from './confusables/confusables.json';

/**
 * How a username is compared: after Unicode NFKC (full-width "ａｄｍｉｎ" is "admin") and without case. Login finds
 * the account by it and the throttle counts by it, so "Admin" and "admin" share one budget of failures.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

/** Unicode's prototypes (UTS #39 confusables.txt, version in the JSON; regenerate with ./confusables/generate.mjs). */
const PROTOTYPES: Readonly<Record<string, string>> = confusables.prototypes;

// Characters that render as nothing (soft hyphen, zero-width joiner, variation selectors...): "ad\u00admin" shows as
// "admin". Node's own Unicode property tables, so the list follows the runtime's Unicode version.
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * UTS #39's skeleton (section 4, "internalSkeleton"): NFD, default-ignorable code points removed, each character
 * replaced by its prototype from Unicode's confusables data, NFD again. Two strings that look alike have the same
 * skeleton ("аdmin" with a Cyrillic а, "admın" with a dotless ı, "ad\u00admin" with a soft hyphen all give admin's).
 */
export function skeleton(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFD').replace(DEFAULT_IGNORABLE, '')) out += PROTOTYPES[ch] ?? ch;
  return out.normalize('NFD');
}

/**
 * What a username looks like: the skeleton of its key, without case again (some prototypes are capitals: a digit
 * zero's is "O"). Two accounts may not share one, so nobody can be made to trust "аdmin" for "admin". For comparing
 * only, never shown.
 */
export function usernameSkeleton(username: string): string {
  return skeleton(usernameKey(username)).toLowerCase();
}
