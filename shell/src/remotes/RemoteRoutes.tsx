import { Component, lazy, Suspense, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { ErrorCard, Loading } from '@act/ui-kit';
import { reRegisterRemote, registerRemotesFromConfig } from './registry';
import { REMOTE_ROUTES, type RemoteName } from './routeTable';

/** What every remote exposes as `./routes`. */
export type RemoteRoutesComponent = ComponentType<{ notFound?: ReactNode }>;

function lazyRemote(name: RemoteName, retry: boolean) {
  return lazy(async () => {
    if (retry) await reRegisterRemote(name);
    else await registerRemotesFromConfig();
    const mod = await loadRemote<{ default: RemoteRoutesComponent }>(`${name}/routes`);
    if (!mod?.default) throw new Error(`${name}/routes did not load`);
    return { default: mod.default };
  });
}

// One lazy component per remote and attempt, kept outside render so React.lazy is not recreated.
const loaded = new Map<RemoteName, { attempt: number; Routes: RemoteRoutesComponent }>();
function remoteComponent(name: RemoteName, attempt: number): RemoteRoutesComponent {
  const cached = loaded.get(name);
  if (cached && cached.attempt === attempt) return cached.Routes;
  const Routes = lazyRemote(name, attempt > 0);
  loaded.set(name, { attempt, Routes });
  return Routes;
}

/**
 * A remote's route table, loaded at run time. If the remote (or /remotes.json) cannot be loaded,
 * its routes show an error card with Retry, and the rest of the shell keeps working.
 */
export function RemoteRoutes({ name, notFound }: { name: RemoteName; notFound: ReactNode }) {
  const [attempt, setAttempt] = useState(0);
  const Routes = remoteComponent(name, attempt);
  return (
    <RemoteErrorBoundary key={attempt} name={name} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense fallback={<Loading />}>
        <Routes notFound={notFound} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}

interface BoundaryProps {
  name: RemoteName;
  onRetry: () => void;
  children: ReactNode;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`[shell] remote ${this.props.name} failed`, error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    const label = REMOTE_ROUTES[this.props.name].label;
    return (
      <ErrorCard
        title={`${label} module unavailable`}
        message={`This part of the app could not be loaded right now. The rest of the app keeps working; try again in a moment.`}
        onRetry={this.props.onRetry}
      />
    );
  }
}
