import { MenuItem, Stack, TextField } from '@mui/material';
import { INCENTIVE_KINDS, INCENTIVE_KIND_LABELS, type Incentive, type IncentiveKind, type PoolSummary } from '@act/contracts/src/incentives-api';

const OWN = 'own';

/** A new incentive of this kind, keeping what the previous one had in common (the shop discount). */
function ofKind(kind: IncentiveKind, was: Incentive | null, pools: PoolSummary[]): Incentive {
  const shop = was && (was.kind === 'shopify' || was.kind === 'woocommerce') ? was : null;
  switch (kind) {
    case 'fixed':
      return { kind, code: was?.kind === 'fixed' ? was.code : '' };
    case 'pool':
      return { kind, pool_id: was?.kind === 'pool' ? was.pool_id : (pools[0]?.id ?? '') };
    case 'shopify':
    case 'woocommerce':
      return { kind, discount: shop?.discount ?? 'percentage', value: shop?.value ?? 10, days: shop?.days ?? 7 };
    default:
      return { kind: 'none' };
  }
}

export interface VariantIncentiveFieldsProps {
  /** The variant's incentive; null: the step's own. */
  value: Incentive | null;
  pools: PoolSummary[];
  onChange: (i: Incentive | null) => void;
  /** The variant's id, for the fields' names. */
  variant: string;
}

/** A variant's incentive, as a step's: the step's own, no code, one code, a pool's unique code, or one made in the shop. */
export function VariantIncentiveFields({ value, pools, onChange, variant }: VariantIncentiveFieldsProps) {
  const shop = value && (value.kind === 'shopify' || value.kind === 'woocommerce') ? value : null;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      <TextField
        select
        size="small"
        label="Incentive"
        value={value?.kind ?? OWN}
        onChange={(e) => onChange(e.target.value === OWN ? null : ofKind(e.target.value as IncentiveKind, value, pools))}
        sx={{ minWidth: 220 }}
        slotProps={{ htmlInput: { 'aria-label': `Incentive of variant ${variant}` } }}
      >
        <MenuItem value={OWN}>The step&apos;s own</MenuItem>
        {INCENTIVE_KINDS.map((k) => (
          <MenuItem key={k} value={k}>
            {INCENTIVE_KIND_LABELS[k]}
          </MenuItem>
        ))}
      </TextField>
      {value?.kind === 'fixed' && (
        <TextField size="small" label="Code" value={value.code} onChange={(e) => onChange({ kind: 'fixed', code: e.target.value })} required helperText="Letters, digits, - or _" />
      )}
      {value?.kind === 'pool' && (
        <TextField
          select
          size="small"
          label="Code pool"
          value={value.pool_id}
          onChange={(e) => onChange({ kind: 'pool', pool_id: e.target.value })}
          required
          helperText={pools.length ? undefined : 'Upload a pool of codes first'}
          sx={{ minWidth: 200 }}
        >
          {pools.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {`${p.name} (${p.remaining} of ${p.total} left)`}
            </MenuItem>
          ))}
        </TextField>
      )}
      {shop && (
        <>
          <TextField select size="small" label="Discount" value={shop.discount} onChange={(e) => onChange({ ...shop, discount: e.target.value as 'percentage' | 'amount' })}>
            <MenuItem value="percentage">Percentage off</MenuItem>
            <MenuItem value="amount">Amount off</MenuItem>
          </TextField>
          <TextField size="small" type="number" label={shop.discount === 'percentage' ? 'Percent off' : 'Amount off'} value={String(shop.value)} onChange={(e) => onChange({ ...shop, value: Number(e.target.value) })} sx={{ width: 120 }} />
          <TextField size="small" type="number" label="Ends after (days)" value={String(shop.days)} onChange={(e) => onChange({ ...shop, days: Number(e.target.value) })} sx={{ width: 140 }} />
        </>
      )}
    </Stack>
  );
}
