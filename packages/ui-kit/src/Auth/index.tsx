import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { CurrentUser, User } from '@act/contracts/src/auth';
import { apiRequest, fetcherNullOn401, serverMessage } from '../request';
import { useToast } from '../Toast';

export const CURRENT_USER_KEY = '/api/user';

export interface AuthContextValue {
  /** The signed-in user, or null when signed out (or while loading). */
  user: CurrentUser | null;
  isLoading: boolean;
  isAdmin: boolean;
  /** Resolves with the user on success; on failure shows the toast and rethrows. */
  login: (username: string, password: string) => Promise<CurrentUser>;
  logout: () => Promise<void>;
  /** Reload the current user (after a profile change). */
  refresh: () => Promise<unknown>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** "the user's name" of the welcome toast. */
function displayName(user: Pick<User, 'username' | 'full_name'>): string {
  return user.full_name?.trim() || user.username;
}

/**
 * Section 4: the user request yields null (signed out) on a 401, on any failure (with the toast
 * 'Failed to get user data'), or when the response's authenticated flag is false.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { toast } = useToast();
  const { mutate: mutateGlobal } = useSWRConfig();

  const loadUser = useCallback(
    async (key: string): Promise<CurrentUser | null> => {
      try {
        const data = await fetcherNullOn401<
          (CurrentUser & { authenticated?: boolean }) | { authenticated: false } | null
        >(key);
        if (!data || typeof data !== 'object' || (data as { authenticated?: unknown }).authenticated === false)
          return null;
        if (!('id' in data) || !('username' in data)) return null;
        return data as CurrentUser;
      } catch (error) {
        toast({
          title: 'Failed to get user data',
          description: error instanceof Error ? error.message : undefined,
          variant: 'destructive',
        });
        return null;
      }
    },
    [toast],
  );

  const { data, isLoading, mutate } = useSWR<CurrentUser | null>(CURRENT_USER_KEY, loadUser);

  const login = useCallback(
    async (username: string, password: string) => {
      try {
        const body = await apiRequest<CurrentUser>('POST', '/api/login', { username, password });
        const user = { ...body, authenticated: true as const };
        await mutate(user, { revalidate: false });
        toast({ title: 'Login successful', description: `Welcome, ${displayName(user)}!` });
        return user;
      } catch (error) {
        toast({
          title: 'Login failed',
          description: serverMessage(error, 'Login failed. Please check your credentials.'),
          variant: 'destructive',
        });
        throw error;
      }
    },
    [mutate, toast],
  );

  const logout = useCallback(async () => {
    try {
      await apiRequest('POST', '/api/logout');
      // Drop every cached list too: the next person to sign in on this tab must not see the
      // previous user's data (e.g. an admin's user list) before their own loads.
      await mutateGlobal((key) => key !== CURRENT_USER_KEY, undefined, { revalidate: false });
      await mutate(null, { revalidate: false });
      toast({ title: 'Logout successful', description: 'You have been logged out.' });
    } catch (error) {
      toast({
        title: 'Logout failed',
        description: serverMessage(error, error instanceof Error ? error.message : ''),
        variant: 'destructive',
      });
    }
  }, [mutate, mutateGlobal, toast]);

  const user = data ?? null;
  const value = useMemo<AuthContextValue>(
    () => ({ user, isLoading, isAdmin: user?.role === 'admin', login, logout, refresh: () => mutate() }),
    [user, isLoading, login, logout, mutate],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider> (the shell renders it once)');
  return ctx;
}
