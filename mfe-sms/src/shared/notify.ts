import { useMemo } from 'react';
import { useToast } from '@act/ui-kit';

/**
 * The two toast shapes of spec section 8: a success names what happened; a failure is a destructive toast
 * titled 'Error' whose description is the given text.
 */
export function useNotify() {
  const { toast } = useToast();
  return useMemo(
    () => ({
      success: (title: string, description?: string) => toast({ title, description }),
      error: (description: string) => toast({ title: 'Error', description, variant: 'destructive' }),
    }),
    [toast],
  );
}
