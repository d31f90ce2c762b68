/**
 * How far back a new SMS integration picks up the contacts of its funnel that came in (with a phone, through the
 * email side) before it existed: the form says it, svc-sms keeps such contacts this long (docs/decisions.md).
 */
export const PICKUP_WINDOW_DAYS = 7;
