/**
 * When a Resend answer is worth another attempt, and how long to wait first (docs: "Usage Limits", "Errors").
 * Retried: 429 rate_limit_exceeded (not the daily or monthly quota, which waiting minutes does not cure), any 5xx,
 * no answer at all (network error, timeout: the SDK reports statusCode null), and 409
 * concurrent_idempotent_requests (the same key still in flight). Everything else (invalid address, domain not
 * verified, bad key) fails at once with Resend's message.
 */
export interface ResendFailure {
  name?: string;
  message?: string;
  statusCode?: number | null;
}

const QUOTA = new Set(['daily_quota_exceeded', 'monthly_quota_exceeded']);

export function isRetryable(error: ResendFailure): boolean {
  const status = error.statusCode ?? null;
  if (status === null) return true;
  if (status === 429) return !QUOTA.has(error.name ?? '');
  if (status === 409) return error.name === 'concurrent_idempotent_requests';
  return status >= 500;
}

export interface BackoffPolicy {
  /** First wait without a hint from Resend; doubles per attempt. */
  baseMs: number;
  /** Longest single wait. */
  maxMs: number;
}

/**
 * Resend's own hint first (`retry-after`, else `ratelimit-reset`, in seconds); otherwise exponential backoff with
 * full jitter between half and all of it, so instances that failed together do not retry together.
 */
export function waitBeforeRetry(
  attempt: number,
  headers: Record<string, string> | null,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const hint = Number(headers?.['retry-after'] ?? headers?.['ratelimit-reset'] ?? NaN);
  if (Number.isFinite(hint) && hint >= 0) return Math.min(policy.maxMs, Math.ceil(hint * 1000));
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (0.5 + random() * 0.5));
}
