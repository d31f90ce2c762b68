import { useState } from 'react';

/**
 * The state of a delete confirmation: what is being deleted, whether the dialog is open, and the busy flag while
 * `remove` runs. The subject outlives the dialog's closing, so the dialog's text does not empty while it fades out.
 * `remove` gets the subject and `close` (to call once the delete went through); it tells its own toasts.
 */
export function useDeleteConfirm<T>(remove: (subject: T, close: () => void) => Promise<void>) {
  const [subject, setSubject] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const close = () => setOpen(false);
  return {
    subject,
    /** Opens the confirmation for `item`. */
    ask(item: T) {
      setSubject(item);
      setOpen(true);
    },
    /** open, loading, onClose and onConfirm of a ConfirmDialog. */
    dialogProps: {
      open,
      loading: busy,
      onClose: close,
      async onConfirm() {
        if (!subject) return;
        setBusy(true);
        try {
          await remove(subject, close);
        } finally {
          setBusy(false);
        }
      },
    },
  };
}
