import { useEffect, useState } from 'react';
import { MenuItem, Stack, TextField } from '@mui/material';
import {
  INCENTIVE_KINDS,
  INCENTIVE_KIND_LABELS,
  type Incentive,
  type IncentiveKind,
  type PoolSummary,
} from '@act/contracts/src/incentives-api';
import { apiRequest, serverMessage } from '../request';
import { FormDialog } from '../FormDialog';

export interface StepIncentiveDialogProps {
  open: boolean;
  prefix: string;
  templateId: number;
  stepName: string;
  current: Incentive;
  pools: PoolSummary[];
  onClose: () => void;
  onSaved: (i: Incentive) => void;
}

/** The step's incentive: no code, one code for all, a unique code from a pool, or one created in the shop. */
export function StepIncentiveDialog({ open, prefix, templateId, stepName, current, pools, onClose, onSaved }: StepIncentiveDialogProps) {
  const [kind, setKind] = useState<IncentiveKind>('none');
  const [code, setCode] = useState('');
  const [poolId, setPoolId] = useState('');
  const [discount, setDiscount] = useState<'percentage' | 'amount'>('percentage');
  const [value, setValue] = useState('10');
  const [days, setDays] = useState('7');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setKind(current.kind);
    setCode(current.kind === 'fixed' ? current.code : '');
    setPoolId(current.kind === 'pool' ? current.pool_id : (pools[0]?.id ?? ''));
    if (current.kind === 'shopify' || current.kind === 'woocommerce') {
      setDiscount(current.discount);
      setValue(String(current.value));
      setDays(String(current.days));
    }
    setError(null);
  }, [open, current, pools]);

  function body(): Incentive {
    if (kind === 'fixed') return { kind, code: code.trim() };
    if (kind === 'pool') return { kind, pool_id: poolId };
    if (kind === 'shopify' || kind === 'woocommerce') return { kind, discount, value: Number(value), days: Number(days) };
    return { kind: 'none' };
  }

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      onSaved(await apiRequest<Incentive>('PUT', `${prefix}/templates/${templateId}/incentive`, body()));
    } catch (err) {
      setError(serverMessage(err, 'The incentive could not be saved'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open={open}
      title="Incentive"
      subtitle={stepName}
      onCancel={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      submitLabel="Save"
      busy={busy}
      error={error}
      errorTestId="incentive-error"
    >
      <Stack spacing={2} sx={{ mt: 1 }}>
        <TextField select label="Code in the message" value={kind} onChange={(e) => setKind(e.target.value as IncentiveKind)}>
          {INCENTIVE_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {INCENTIVE_KIND_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
        {kind === 'fixed' && <TextField label="Code" value={code} onChange={(e) => setCode(e.target.value)} required helperText="Letters, digits, - or _" />}
        {kind === 'pool' && (
          <TextField select label="Code pool" value={poolId} onChange={(e) => setPoolId(e.target.value)} required helperText={pools.length ? undefined : 'Upload a pool of codes first'}>
            {pools.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {`${p.name} (${p.remaining} of ${p.total} left)`}
              </MenuItem>
            ))}
          </TextField>
        )}
        {(kind === 'shopify' || kind === 'woocommerce') && (
          <>
            <TextField select label="Discount" value={discount} onChange={(e) => setDiscount(e.target.value as 'percentage' | 'amount')}>
              <MenuItem value="percentage">Percentage off</MenuItem>
              <MenuItem value="amount">Amount off</MenuItem>
            </TextField>
            <TextField label={discount === 'percentage' ? 'Percent off' : 'Amount off'} type="number" value={value} onChange={(e) => setValue(e.target.value)} required />
            <TextField label="Ends after (days)" type="number" value={days} onChange={(e) => setDays(e.target.value)} required helperText="Single use, created for each shopper when the message is sent" />
          </>
        )}
      </Stack>
    </FormDialog>
  );
}
