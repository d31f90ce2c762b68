// The fake Resend and the fake Twilio of packages/testing in a process of their own for bench:delivery (plain .mjs,
// and the fakes' CPU kept apart from the bench's). Started with `node --import tsx` and an IPC channel, options as
// JSON in argv[2]: { resend: {...}, twilio: {...} } (startFakeResend / startFakeTwilio options). Announces
// { type: 'ready', resendUrl, twilioUrl, accountSid, authToken }; answers { type: 'progress' } with the counts so
// far and { type: 'summary' } with what each fake took, per recipient.
import { startFakeResend, startFakeTwilio } from '@act/testing';

interface Options {
  resend: Parameters<typeof startFakeResend>[0];
  twilio: Parameters<typeof startFakeTwilio>[0];
}

/** Messages taken in each wall-clock second from the first to the last (the fake's own rate windows). */
function perSecond(times: number[]): number[] {
  if (times.length === 0) return [];
  const first = Math.floor(Math.min(...times) / 1000);
  const counts = Array<number>(Math.floor(Math.max(...times) / 1000) - first + 1).fill(0);
  for (const t of times) counts[Math.floor(t / 1000) - first]! += 1;
  return counts;
}

async function main() {
  const opts = JSON.parse(process.argv[2] ?? '{}') as Options;
  const resend = await startFakeResend({ ...opts.resend, recordRequests: false });
  const twilio = await startFakeTwilio(opts.twilio);
  process.send!({
    type: 'ready',
    resendUrl: resend.url,
    twilioUrl: twilio.url,
    accountSid: twilio.accountSid,
    authToken: twilio.authToken,
  });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'progress') {
      process.send!({
        type: 'progress',
        emails: resend.emails.length,
        sms: twilio.messages.length,
        lastEmailAt: resend.emails.at(-1)?.at ?? null,
        lastSmsAt: twilio.messages.at(-1)?.at ?? null,
      });
    }
    if (m.type === 'summary') {
      // Per recipient: how many emails / texts were taken, and when the first was. Per idempotency key and
      // recipient: an email taken twice under one key would mean the fake's replay failed (never expected).
      const emailsTo: Record<string, { n: number; at: number }> = {};
      const byKey = new Map<string, number>();
      const batchSizes = new Map<string, number>();
      for (const e of resend.emails) {
        for (const to of e.to) {
          const r = (emailsTo[to] ??= { n: 0, at: e.at });
          r.n += 1;
          const k = `${e.idempotencyKey}\u0000${to}`;
          byKey.set(k, (byKey.get(k) ?? 0) + 1);
        }
        if (e.idempotencyKey) batchSizes.set(e.idempotencyKey, (batchSizes.get(e.idempotencyKey) ?? 0) + 1);
      }
      const sizes = [...batchSizes.values()];
      const smsTo: Record<string, { n: number; at: number }> = {};
      const senders = new Set<string>();
      for (const s of twilio.messages) {
        // The body carries the step: the same phone with another step's text is not a duplicate.
        const r = (smsTo[`${s.to}\u0000${s.body}`] ??= { n: 0, at: s.at });
        r.n += 1;
        senders.add(s.messagingServiceSid ?? s.from ?? '');
      }
      process.send!({
        type: 'summary',
        resend: {
          emails: resend.emails.length,
          calls: { ...resend.chaosCounts, rateLimited: resend.rateLimited, idempotentReplays: resend.idempotentReplays },
          batchCalls: resend.batchCalls,
          emailsPerCall: sizes.length ? +(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(1) : null,
          keysTakenTwice: [...byKey.values()].filter((n) => n > 1).length,
          firstAt: resend.emails[0]?.at ?? null,
          lastAt: resend.emails.at(-1)?.at ?? null,
          to: emailsTo,
        },
        twilio: {
          messages: twilio.messages.length,
          calls: { ...twilio.chaosCounts, rateLimited: twilio.rateLimited },
          senders: [...senders],
          firstAt: twilio.messages[0]?.at ?? null,
          lastAt: twilio.messages.at(-1)?.at ?? null,
          perSecond: perSecond(twilio.messages.map((m) => m.at)),
          to: smsTo,
        },
      });
    }
  });
  // No graceful close: unanswered calls (injected timeouts) would hold it open for minutes.
  process.on('disconnect', () => process.exit(0));
}
void main();
