import removeConfusables from 'confusables';

/**
 * How a username is compared: after Unicode NFKC (full-width "ａｄｍｉｎ" is "admin") and without case. Login finds
 * the account by it and the throttle counts by it, so "Admin" and "admin" share one budget of failures.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

/**
 * What a username looks like: its key with look-alike characters folded onto Latin ones (Cyrillic "а", Greek "ο",
 * accents). Two accounts may not share one, so nobody can be made to trust "аdmin" for "admin". For comparing
 * only, never shown.
 */
export function usernameSkeleton(username: string): string {
  return removeConfusables(usernameKey(username)).toLowerCase();
}
