import twilio from 'twilio';

/**
 * Twilio's own HTTP client with every `https://*.twilio.com` URL rewritten to `baseUrl` (path and query kept).
 * Used only when TWILIO_BASE_URL is set, so tests run the real SDK (auth, form encoding, paging, errors) against
 * a local fake; the original host travels in `X-Twilio-Host` for fakes that serve several products.
 */
export class RedirectingRequestClient extends twilio.RequestClient {
  private readonly base: URL;

  constructor(baseUrl: string, opts?: ConstructorParameters<typeof twilio.RequestClient>[0]) {
    super(opts);
    this.base = new URL(baseUrl);
  }

  override request<TData>(opts: Parameters<typeof twilio.RequestClient.prototype.request<TData>>[0]) {
    const original = new URL(opts.uri);
    const target = new URL(this.base.href);
    target.pathname = this.base.pathname.replace(/\/$/, '') + original.pathname;
    target.search = original.search;
    return super.request<TData>({
      ...opts,
      uri: target.href,
      headers: { ...(opts.headers ?? {}), 'X-Twilio-Host': original.host },
    });
  }
}
