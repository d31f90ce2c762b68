/**
 * The zone most of a state's or province's people keep, for the countries that span several zones and whose
 * senders give a `province_code` (Shopify's codes: the ISO 3166-2 subdivision without the country). A state split
 * between zones (Tennessee, Kentucky, Indiana's northwest) gets the zone of its larger share.
 */
export const PROVINCE_ZONES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  US: {
    ...spread('America/New_York', 'CT DE DC FL GA KY ME MD MA NH NJ NY NC OH PA RI SC VT VA WV'),
    ...spread('America/Chicago', 'AL AR IL IA KS LA MN MS MO NE ND OK SD TN TX WI'),
    ...spread('America/Denver', 'CO MT NM UT WY'),
    ...spread('America/Los_Angeles', 'CA NV OR WA'),
    AK: 'America/Anchorage',
    AZ: 'America/Phoenix',
    HI: 'Pacific/Honolulu',
    ID: 'America/Boise',
    IN: 'America/Indiana/Indianapolis',
    MI: 'America/Detroit',
    PR: 'America/Puerto_Rico',
    VI: 'America/St_Thomas',
    GU: 'Pacific/Guam',
    AS: 'Pacific/Pago_Pago',
    MP: 'Pacific/Saipan',
  },
  CA: {
    AB: 'America/Edmonton',
    BC: 'America/Vancouver',
    MB: 'America/Winnipeg',
    NB: 'America/Moncton',
    NL: 'America/St_Johns',
    NS: 'America/Halifax',
    NT: 'America/Edmonton',
    NU: 'America/Iqaluit',
    ON: 'America/Toronto',
    PE: 'America/Halifax',
    QC: 'America/Toronto',
    SK: 'America/Regina',
    YT: 'America/Whitehorse',
  },
  AU: {
    ACT: 'Australia/Sydney',
    NSW: 'Australia/Sydney',
    NT: 'Australia/Darwin',
    QLD: 'Australia/Brisbane',
    SA: 'Australia/Adelaide',
    TAS: 'Australia/Hobart',
    VIC: 'Australia/Melbourne',
    WA: 'Australia/Perth',
  },
};

function spread(zone: string, codes: string): Record<string, string> {
  return Object.fromEntries(codes.split(' ').map((c) => [c, zone]));
}
