import { ErrorCard, errorMessage } from '@act/ui-kit';

/** A failed load: the ErrorCard with the request's message and a Retry (section 8 message format). */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  return <ErrorCard title={`Error loading ${what}`} message={errorMessage(error)} onRetry={onRetry} />;
}
