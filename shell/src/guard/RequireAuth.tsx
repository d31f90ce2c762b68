import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Loading, useAuth } from '@act/ui-kit';

/** Spec §2: spinner while the current user loads, signed-out visitors to /auth, else the page. */
export function RequireAuth({ children, adminOnly = false }: { children: ReactNode; adminOnly?: boolean }) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <Loading label="Loading user" />;
  if (!user) return <Navigate to="/auth" replace />;
  if (adminOnly && user.role !== 'admin') return <Navigate to="/auth" replace />;
  return <>{children}</>;
}
