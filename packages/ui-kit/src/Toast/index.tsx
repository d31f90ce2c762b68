import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
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

/** MUI's focus trap: a sentinel, the trapped element, a sentinel; the sentinels leave the tab order on closing. */
const SENTINEL = ':scope > [data-testid="sentinelStart"]';

/**
 * The focus-trapped element of the topmost open modal (a Dialog's container, a Drawer's sheet), or null. A modal
 * marks everything else on the page aria-hidden and keeps the keyboard inside itself, so a toast shown while one
 * is open lives inside it. A closing modal (sentinels out of the tab order) and menus do not count.
 */
function openModalHost(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  const roots = document.querySelectorAll<HTMLElement>('body > .MuiModal-root:not(.MuiPopover-root)');
  for (let i = roots.length - 1; i >= 0; i--) {
    const sentinel = roots[i]!.querySelector<HTMLElement>(SENTINEL);
    const trapped = sentinel?.nextElementSibling;
    if (sentinel?.tabIndex === 0 && trapped instanceof HTMLElement) return sliding(trapped) ? null : trapped;
  }
  return null;
}

/**
 * A sheet sliding in is transformed, which makes it the box a fixed toast inside it is placed in: the toast would
 * ride in with it, at the sheet's top centre over its close button. It waits on the page until the slide ends.
 */
function sliding(el: HTMLElement): boolean {
  const transform = getComputedStyle(el).transform;
  return transform !== '' && transform !== 'none';
}

/**
 * The single notifier. Section 4 and 9: at most one toast is visible at a time, so a new toast
 * replaces the current one instead of queueing behind it (the newest outcome is what matters).
 *
 * It hides after `duration` whatever the pointer does (MUI's own timer pauses while hovered, so a toast under a
 * resting pointer never went away), and while a dialog or sheet is open it is rendered inside the topmost one, also
 * when that opens after the toast.
 */
export function ToastProvider({ children, duration = TOAST_DURATION_MS }: { children: ReactNode; duration?: number }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const [open, setOpen] = useState(false);
  const [host, setHost] = useState<HTMLElement | null>(null);
  const nextId = useRef(1);

  const toast = useCallback<ToastFn>((input) => {
    setCurrent({ ...input, id: nextId.current++ });
    setOpen(true);
  }, []);
  const dismiss = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);

  // After the commit that shows the toast (and perhaps closes the dialog that asked for it), before painting.
  useLayoutEffect(() => {
    if (current) setHost(openModalHost());
  }, [current]);
  // While it shows, it follows the topmost open modal: into a dialog or sheet that opens after it (an action that
  // toasts and then opens one, or a toast raised in the same click that opens it: the modal's portal mounts after
  // this provider's layout effect), into one opened over that, and back to the page when they close. Left outside,
  // it would be aria-hidden and out of the keyboard's reach behind the modal's focus trap.
  useEffect(() => {
    if (!current || !open) return;
    const follow = () => setHost(openModalHost());
    // Modals are portals added to and removed from the body; a closing one takes its sentinels out of the tab order.
    const portals = new MutationObserver(follow);
    portals.observe(document.body, { childList: true });
    const traps = new MutationObserver(follow);
    traps.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['tabindex'] });
    // A sheet that has slid in.
    document.addEventListener('transitionend', follow, true);
    follow();
    return () => {
      portals.disconnect();
      traps.disconnect();
      document.removeEventListener('transitionend', follow, true);
    };
  }, [current, open]);
  useEffect(() => {
    if (!open || !current) return;
    const timer = setTimeout(() => setOpen(false), duration);
    return () => clearTimeout(timer);
  }, [open, current, duration]);

  const snackbar = current && (
    <Snackbar
      // A new id remounts the snackbar for the replacing toast.
      key={current.id}
      open={open}
      onClose={(_event, reason) => {
        // Escape closes it; a click elsewhere does not (the timer above does).
        if (reason === 'escapeKeyDown') setOpen(false);
      }}
      // Top centre: at the bottom right it covered the Create / Cancel buttons of dialogs and side sheets, at
      // the top right a side sheet's title and close button; here it is clear of both on wide screens.
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      // On a phone a side sheet fills the width and its close button sits in the top-right corner, which the
      // toast (8 px from both edges there) covered: it keeps clear of that corner below the sm breakpoint.
      sx={{ right: { xs: 64, sm: 'auto' } }}
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
  );

  return (
    <ToastContext.Provider value={value}>
      {children}
      {snackbar && host ? createPortal(snackbar, host) : snackbar}
    </ToastContext.Provider>
  );
}

/** `const { toast } = useToast(); toast({ title, description, variant: 'destructive' })`. */
export function useToast(): ToastContextValue {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast must be used inside <ToastProvider> (the shell renders it once)');
  return ctx;
}
