import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Loading, useAuth } from '@act/ui-kit';
import { AuthPage } from './auth/AuthPage';
import { NotFoundPage } from './not-found/NotFoundPage';
import { RemoteRoutes } from './remotes/RemoteRoutes';
import { remoteForPath } from './remotes/routeTable';
import { RequireAuth } from './guard/RequireAuth';
import { PageLoadErrorBoundary } from './errors/PageLoadErrorBoundary';

// Everything behind sign-in is a separate chunk, the layout (sidebar icons) included: the sign-in
// page has a size budget (≤ 350 KB gzipped JS).
const AppLayout = lazy(() => import('./layout/AppLayout'));
const ProfilePage = lazy(() => import('./profile/ProfilePage'));
const UsersPage = lazy(() => import('./users/UsersPage'));
const AuditLogPage = lazy(() => import('./audit/AuditLogPage'));
const PrivacyRequestsPage = lazy(() => import('./privacy/PrivacyRequestsPage'));
const UnsubscribeManagementPage = lazy(() => import('./unsubscribe/UnsubscribeManagementPage'));
const UnsubscribePage = lazy(() => import('./unsubscribe/UnsubscribePage'));

/**
 * The only router's route table. The shell's own pages first; every other path goes to the remote
 * that owns it (remotes/routeTable.ts), else the 404 card.
 */
export function App() {
  return (
    <PageLoadErrorBoundary>
      <Suspense fallback={<Loading fullScreen />}>
        <Routes>
          <Route path="/auth" element={<AuthPage />} />
          <Route path="/unsubscribe" element={<UnsubscribePage />} />
          <Route element={<SignedInFrame />}>
            <Route path="/profile" element={<ProfilePage />} />
            <Route path="/users" element={<UsersPage />} />
            <Route
              path="/audit-log"
              element={
                <RequireAuth adminOnly>
                  <AuditLogPage />
                </RequireAuth>
              }
            />
            <Route
              path="/privacy-requests"
              element={
                <RequireAuth adminOnly>
                  <PrivacyRequestsPage />
                </RequireAuth>
              }
            />
            <Route
              path="/unsubscribe-management"
              element={
                <RequireAuth adminOnly>
                  <UnsubscribeManagementPage />
                </RequireAuth>
              }
            />
            <Route path="*" element={<RemoteOrNotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </PageLoadErrorBoundary>
  );
}

/**
 * The frame of every signed-in page. A signed-out visitor is sent to /auth here, outside the lazy
 * layout, so the redirect never waits for the signed-in chunk (a slow download would hold the visitor
 * on a spinner, one that failed after the user answered would leave a blank page). While the user loads, the
 * layout renders as usual: its sidebar frames RequireAuth's spinner.
 */
function SignedInFrame() {
  const { user, isLoading } = useAuth();
  if (!isLoading && !user) return <Navigate to="/auth" replace />;
  return <AppLayout />;
}

function RemoteOrNotFound() {
  const { pathname } = useLocation();
  const remote = remoteForPath(pathname);
  if (!remote) return <NotFoundPage />;
  // Keyed by remote so a failing SMS remote does not keep its error card on email pages.
  return <RemoteRoutes key={remote} name={remote} notFound={<NotFoundPage />} />;
}
