import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, AlertTitle, Snackbar } from '@mui/material';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: ReactNode;
  variant?: ToastVariant;
}

interface ActiveToast extends ToastInput {
  id: number;
}

type ToastFn = (toast: ToastInput) => void;

interface ToastContextValue {
  toast: ToastFn;
  dismiss: () => void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

/** How long a toast stays before it hides by itself. */
export const TOAST_DURATION_MS = 5000;

/**
 * The single notifier. Section 4 and 9: at most one toast is visible at a time, so a new toast
 * replaces the current one instead of queueing behind it (the newest outcome is what matters).
 */
export function ToastProvider({ children, duration = TOAST_DURATION_MS }: { children: ReactNode; duration?: number }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const [open, setOpen] = useState(false);
  const nextId = useRef(1);

  const toast = useCallback<ToastFn>((input) => {
    setCurrent({ ...input, id: nextId.current++ });
    setOpen(true);
  }, []);
  const dismiss = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      {current && (
        <Snackbar
          // A new id remounts the snackbar so its hide timer restarts for the replacing toast.
          key={current.id}
          open={open}
          autoHideDuration={duration}
          onClose={(_event, reason) => {
            if (reason !== 'clickaway') setOpen(false);
          }}
          // Top centre: at the bottom right it covered the Create / Cancel buttons of dialogs and side sheets, at
          // the top right a side sheet's title and close button; here it is clear of both on wide screens.
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
        >
          <Alert
            onClose={() => setOpen(false)}
            severity={current.variant === 'destructive' ? 'error' : 'success'}
            variant="filled"
            sx={{ minWidth: 300, maxWidth: 480, alignItems: 'flex-start' }}
            data-testid="toast"
          >
            <AlertTitle sx={{ mb: current.description ? 0.25 : 0 }}>{current.title}</AlertTitle>
            {current.description}
          </Alert>
        </Snackbar>
      )}
    </ToastContext.Provider>
  );
}

/** `const { toast } = useToast(); toast({ title, description, variant: 'destructive' })`. */
export function useToast(): ToastContextValue {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast must be used inside <ToastProvider> (the shell renders it once)');
  return ctx;
}
