import { Chip, type ChipProps } from '@mui/material';

/** Section 2: contact_created blue, purchase_created green, handshake grey, anything else the default badge. */
const TYPE_STYLES: Record<string, Pick<ChipProps, 'color' | 'variant'>> = {
  contact_created: { color: 'primary', variant: 'filled' },
  purchase_created: { color: 'success', variant: 'filled' },
  handshake: { color: 'default', variant: 'filled' },
};

export function EventTypeChip({ type }: { type: string }) {
  const style = TYPE_STYLES[type] ?? { color: 'default', variant: 'outlined' };
  return (
    <Chip size="small" label={type} {...style} data-type={type} sx={{ fontFamily: 'monospace', fontWeight: 600 }} />
  );
}
