import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Chaos, neverAnswer, type ChaosCounts, type ChaosOptions } from './chaos';
import { readBody } from './http';

export interface FakeMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
  /** Date.now() when the fake received it. */
  at: number;
  /** The host the SDK meant to call (X-Twilio-Host from the redirecting client). */
  host: string | null;
}

export interface FakeTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  messages: FakeMessage[];
  /** Destinations the fake refuses like Twilio does for an invalid number (error 21211). */
  refuse: Set<string>;
  /** Destinations that replied STOP to the sender: refused with 21610, as Twilio does. */
  optedOut: Set<string>;
  /** Destinations that are not mobile numbers: refused with 21614. */
  notMobile: Set<string>;
  /**
   * The next `times` message creations answer like a busy Twilio: 429 with code 20429, or a 5xx; `'reset'` takes the
   * message (it is sent) and then drops the connection without an answer, like a timeout after Twilio accepted it.
   */
  failNext(kind: 429 | 500 | 503 | 'reset', times: number): void;
  /** An outage: every message creation answers 503 for `ms` from now (nothing is sent meanwhile). */
  downFor(ms: number): void;
  /** From now, every message creation is taken (the message recorded) at once and answered `ms` later; 0: at once. */
  answerAfter(ms: number): void;
  services: { sid: string; friendly_name: string }[];
  /** Message creations refused with 429 / 20429 for going over `maxPerSecondPerSender`. */
  rateLimited: number;
  /** What the injected trouble did so far (all zero without `chaos`). */
  chaosCounts: ChaosCounts;
  waitForMessages(count: number, timeoutMs?: number): Promise<FakeMessage[]>;
  stop(): Promise<void>;
}

/**
 * A local stand-in for the parts of Twilio's REST API svc-sms calls, recording every message. The service runs the
 * real SDK against it through TWILIO_BASE_URL. Checks HTTP Basic auth like Twilio (401, code 20003).
 * `maxPerSecondPerSender` (bench:delivery) takes at most that many messages per sender (the messaging service, else
 * the From number) in each wall-clock second and refuses the rest with 429 / 20429. Real Twilio queues them instead
 * and sends at the sender's pace; refusing makes every overrun of the pace visible. Like Twilio, a refused call
 * takes nothing: only accepted messages count. `chaos` injects 429 / 500 / unanswered calls at random (chaos.ts).
 * `rateClock` gives the time those seconds are read from (Date.now by default; a test of the fake's own window
 * passes a clock that stands still, so a loaded machine cannot spread its burst over two seconds).
 */
export async function startFakeTwilio({
  accountSid = `AC${randomBytes(16).toString('hex')}`,
  authToken = 'fake-auth-token',
  maxPerSecondPerSender = 0,
  chaos: chaosOptions,
  rateClock = Date.now,
}: {
  accountSid?: string;
  authToken?: string;
  maxPerSecondPerSender?: number;
  chaos?: ChaosOptions;
  rateClock?: () => number;
} = {}): Promise<FakeTwilio> {
  const chaos = new Chaos(chaosOptions);
  const windows = new Map<string, { second: number; used: number }>();
  let rateLimited = 0;
  const messages: FakeMessage[] = [];
  const refuse = new Set<string>();
  const optedOut = new Set<string>();
  const notMobile = new Set<string>();
  const failures: (429 | 500 | 503 | 'reset')[] = [];
  let downUntil = 0;
  let answerDelayMs = 0;
  const services = [
    { sid: 'MG00000000000000000000000000000001', friendly_name: 'Cart Reminders' },
    { sid: 'MG00000000000000000000000000000002', friendly_name: 'Marketing' },
  ];
  const server: Server = createServer(async (req, res) => {
    const delay = req.method === 'POST' ? answerDelayMs : 0;
    const send = (status: number, body: unknown) => {
      const write = () => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (delay > 0) setTimeout(write, delay);
      else write();
    };
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    if (auth !== `${accountSid}:${authToken}`)
      return send(401, {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (req.method === 'POST' && url.pathname === `/2010-04-01/Accounts/${accountSid}/Messages.json`) {
      const p = new URLSearchParams(body);
      const to = p.get('To') ?? '';
      if (refuse.has(to))
        return send(400, {
          code: 21211,
          message: `The 'To' number ${to} is not a valid phone number.`,
          more_info: 'https://www.twilio.com/docs/errors/21211',
          status: 400,
        });
      if (Date.now() < downUntil) return send(503, { code: 20503, message: 'Service Unavailable', status: 503 });
      const failure = failures.shift();
      const tooMany = () =>
        send(429, {
          code: 20429,
          message: 'Too Many Requests',
          more_info: 'https://www.twilio.com/docs/errors/20429',
          status: 429,
        });
      if (failure === 429) return tooMany();
      const decision = chaosOptions ? chaos.decide() : 'ok';
      if (decision === 429) return tooMany();
      if (decision === 500) return send(500, { code: 20500, message: 'Internal Server Error', status: 500 });
      if (decision === 'timeout-dropped') return neverAnswer(req.socket);
      if (failure === 500 || failure === 503)
        return send(failure, { code: 20500, message: 'Internal Server Error', status: failure });
      if (optedOut.has(to))
        return send(400, {
          code: 21610,
          message: 'Attempt to send to unsubscribed recipient',
          more_info: 'https://www.twilio.com/docs/errors/21610',
          status: 400,
        });
      if (notMobile.has(to))
        return send(400, {
          code: 21614,
          message: `'To' number ${to} is not a valid mobile number`,
          more_info: 'https://www.twilio.com/docs/errors/21614',
          status: 400,
        });
      if (maxPerSecondPerSender > 0) {
        const sender = p.get('MessagingServiceSid') ?? p.get('From') ?? '';
        const second = Math.floor(rateClock() / 1000);
        const w = windows.get(sender) ?? { second, used: 0 };
        if (w.second !== second) Object.assign(w, { second, used: 0 });
        windows.set(sender, w);
        if (w.used >= maxPerSecondPerSender) {
          rateLimited += 1;
          return tooMany();
        }
        w.used += 1;
      }
      const m: FakeMessage = {
        sid: `SM${randomBytes(16).toString('hex')}`,
        accountSid,
        to,
        from: p.get('From'),
        messagingServiceSid: p.get('MessagingServiceSid'),
        body: p.get('Body') ?? '',
        statusCallback: p.get('StatusCallback'),
        at: Date.now(),
        host: (req.headers['x-twilio-host'] as string | undefined) ?? null,
      };
      messages.push(m);
      if (failure === 'reset') return void req.socket.destroy();
      // Taken, then silent: recorded (and listed by GET Messages), the client hears nothing.
      if (decision === 'timeout-accepted') return neverAnswer(req.socket);
      return send(201, {
        sid: m.sid,
        account_sid: accountSid,
        to: m.to,
        from: m.from,
        messaging_service_sid: m.messagingServiceSid,
        body: m.body,
        status: m.messagingServiceSid ? 'accepted' : 'queued',
        direction: 'outbound-api',
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${m.sid}.json`,
      });
    }
    if (req.method === 'GET' && url.pathname === `/2010-04-01/Accounts/${accountSid}/Messages.json`) {
      // Newest first, optionally only those to one number, like Twilio's list.
      const to = url.searchParams.get('To');
      const size = Number(url.searchParams.get('PageSize') ?? 50);
      const found = messages
        .filter((m) => !to || m.to === to)
        .reverse()
        .slice(0, size);
      return send(200, {
        messages: found.map((m) => ({
          sid: m.sid,
          account_sid: accountSid,
          to: m.to,
          from: m.from,
          messaging_service_sid: m.messagingServiceSid,
          body: m.body,
          status: m.messagingServiceSid ? 'accepted' : 'queued',
          direction: 'outbound-api',
          date_created: new Date(m.at).toUTCString(),
        })),
        page: 0,
        page_size: size,
        start: 0,
        end: Math.max(found.length - 1, 0),
        first_page_uri: url.pathname,
        next_page_uri: null,
        previous_page_uri: null,
        uri: url.pathname,
      });
    }
    if (req.method === 'GET' && url.pathname === `/2010-04-01/Accounts/${accountSid}.json`) {
      return send(200, { sid: accountSid, friendly_name: 'Fake Test Account', status: 'active', type: 'Full' });
    }
    if (req.method === 'GET' && url.pathname === '/v1/Services') {
      return send(200, {
        services,
        meta: {
          key: 'services',
          page: 0,
          page_size: 50,
          first_page_url: null,
          previous_page_url: null,
          next_page_url: null,
          url: null,
        },
      });
    }
    send(404, { code: 20404, message: `The requested resource ${url.pathname} was not found`, status: 404 });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages,
    refuse,
    optedOut,
    notMobile,
    failNext: (kind, times) => {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    answerAfter: (ms) => {
      answerDelayMs = ms;
    },
    downFor: (ms) => {
      downUntil = Date.now() + ms;
    },
    services,
    get rateLimited() {
      return rateLimited;
    },
    chaosCounts: chaos.counts,
    async waitForMessages(count, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > end) throw new Error(`fake Twilio got ${messages.length} messages, expected ${count}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return messages;
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
