/**
 * The list helpers live in `@act/service-kit` (svc-sms pages its lists with them too). This re-export stays only
 * for the svc-email files another change is editing right now (webhook-events/, contacts/view.ts); import from
 * `@act/service-kit` in new code, and drop this file once those imports are switched.
 */
export { iso, parseListQuery, readList, type ListOptions, type ListQueryParsed, type SortSpec } from '@act/service-kit';
