/**
 * Counting clicks through our own redirect link (`<PUBLIC_URL>/r/<token>`): a switch per channel, off by default so
 * a message carries the recovery link as given. Email: "Count clicks with" Resend's click events or our link; SMS:
 * "Track clicks" (Twilio reports no clicks: our link is the only way). Self-contained (only yup): the browser bundle
 * imports it too.
 */
import * as yup from 'yup';

export const EMAIL_CLICK_SOURCES = ['resend', 'link'] as const;
export type EmailClickSource = (typeof EMAIL_CLICK_SOURCES)[number];
export const EMAIL_CLICK_SOURCE_LABELS: Record<EmailClickSource, string> = {
  resend: 'Resend events',
  link: 'Our link',
};

/** GET/PUT /api/email/click-tracking. */
export interface EmailClickTracking {
  count_clicks_with: EmailClickSource;
}

/** GET/PUT /api/sms/click-tracking. */
export interface SmsClickTracking {
  track_clicks: boolean;
}

export const emailClickTrackingSchema = yup.object({
  count_clicks_with: yup
    .string()
    .oneOf([...EMAIL_CLICK_SOURCES], `count_clicks_with must be one of ${EMAIL_CLICK_SOURCES.join(', ')}`)
    .required('count_clicks_with is required'),
});

export const smsClickTrackingSchema = yup.object({
  track_clicks: yup.boolean().typeError('track_clicks must be true or false').required('track_clicks is required'),
});

/** The page a shopper sees for a link nobody was given (or one erased since). */
export const UNKNOWN_LINK_TITLE = 'This link is not valid';
export const UNKNOWN_LINK_TEXT = 'The link may be incomplete or out of date. Please go back to the shop to find your cart.';
export const TOO_MANY_CLICKS_TEXT = 'Too many requests from this address. Please try again in a minute.';
