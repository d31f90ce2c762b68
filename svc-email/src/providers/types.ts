/** One email as the sending code builds it; the provider only delivers it. */
export interface OutgoingEmail {
  /** `Name <address>`. */
  from: string;
  to: string;
  subject: string;
  html: string;
  headers: Record<string, string>;
  /** Sent as the provider's Idempotency-Key: a retried call for the same (contact, template) is one email. */
  idempotencyKey?: string;
}

/** `attempts`: calls made for this email (retries included). */
export type SendResult =
  | { ok: true; id: string; attempts: number }
  | { ok: false; message: string; statusCode: number | null; attempts: number };

export type CredentialSource = 'env' | 'stored' | null;

export interface ProviderStatus {
  configured: boolean;
  apiKeySource: CredentialSource;
  /** The from-address (never the key). */
  from: string | null;
  fromSource: CredentialSource;
  /** Whether Resend's delivery events can be verified (RESEND_WEBHOOK_SECRET or a stored secret). */
  webhookSecretConfigured: boolean;
}

/**
 * What svc-email needs from an email provider. Resend is the one implementation (providers/resend.ts); tests
 * point it at a local fake with RESEND_BASE_URL.
 */
export interface EmailProvider {
  status(): Promise<ProviderStatus>;
  /** Never throws for provider trouble: the answer says what went wrong. */
  send(email: OutgoingEmail): Promise<SendResult>;
  testConnection(): Promise<{ success: boolean; message: string }>;
}

export const NOT_CONFIGURED_MESSAGE = 'Resend is not configured: set RESEND_API_KEY and RESEND_FROM';
