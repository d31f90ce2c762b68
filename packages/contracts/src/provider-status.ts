/**
 * GET /api/resend/status (svc-email) and GET /api/sms/provider-status (svc-sms): whether the side's provider is
 * configured and how much work waits for it, so no page leaves work waiting without a word.
 */
export interface ProviderStatusResponse {
  provider: 'resend' | 'twilio';
  configured: boolean;
  /** Steps due now that cannot go out for want of the provider (0 when it is configured). */
  waiting: number;
  /** Email side: live sending is off, so reminders are only logged (simulated) whatever the provider. */
  simulated?: boolean;
  /** What a page says at the top; null: nothing to say (configured). */
  message: string | null;
  /** What a waiting contact's row says. */
  row_reason: string | null;
}

const steps = (n: number, what: string) =>
  n === 0 ? `no ${what} step is waiting` : `${n} ${what} step${n === 1 ? '' : 's'} ${n === 1 ? 'is' : 'are'} waiting`;

export function twilioStatusMessage(
  configured: boolean,
  waiting: number,
): Pick<ProviderStatusResponse, 'message' | 'row_reason'> {
  if (configured) return { message: null, row_reason: null };
  return {
    message: `Twilio is not configured: ${steps(waiting, 'SMS')}. Set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN and restart svc-sms.`,
    row_reason: 'Waiting: Twilio is not configured',
  };
}

export function resendStatusMessage(
  configured: boolean,
  waiting: number,
  simulated: boolean,
): Pick<ProviderStatusResponse, 'message' | 'row_reason'> {
  if (configured) return { message: null, row_reason: null };
  if (simulated)
    return {
      message:
        'Resend is not configured: reminders are only logged (live sending is off), no email reaches a shopper. Set the API key and from-address on the Resend page or RESEND_API_KEY and RESEND_FROM.',
      row_reason: null,
    };
  return {
    message: `Resend is not configured: ${steps(waiting, 'email')}. Set the API key and from-address on the Resend page, or RESEND_API_KEY and RESEND_FROM and restart svc-email.`,
    row_reason: 'Waiting: Resend is not configured',
  };
}
