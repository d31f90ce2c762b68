import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorCard } from '@act/ui-kit';

/**
 * Catches a shell page (or the signed-in layout) whose chunk could not be loaded: a dropped connection, or a new
 * deploy that replaced the chunk files under an open tab. Without it React unmounts everything and the user is
 * left with a blank page. React.lazy keeps a failed import for good, so Retry reloads the page.
 */
export class PageLoadErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('[shell] page failed to load', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <ErrorCard
        title="This page could not be loaded"
        message="The connection may have dropped or the app was just updated. Reload to try again."
        retryLabel="Reload"
        onRetry={() => window.location.reload()}
      />
    );
  }
}
