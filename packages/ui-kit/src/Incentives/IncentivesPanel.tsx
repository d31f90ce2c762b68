import { useState } from 'react';
import useSWR from 'swr';
import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import RedeemIcon from '@mui/icons-material/RedeemOutlined';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import { formatMoney as formatMinor } from '@act/contracts/src/cart';
import {
  INCENTIVE_KIND_LABELS,
  poolWarning,
  type Incentive,
  type PoolSummary,
  type StepRedemptions,
} from '@act/contracts/src/incentives-api';
import { formatCount } from '../format';
import { PoolUploadDialog } from './PoolUploadDialog';
import { StepIncentiveDialog } from './StepIncentiveDialog';

export interface IncentiveStep {
  /** The template's id. */
  id: number;
  name: string;
}

export interface IncentivesPanelProps {
  /** `/api/email` or `/api/sms`. */
  prefix: string;
  channel: 'email' | 'sms';
  campaignName: string;
  steps: IncentiveStep[];
}

/** What a step gives, in a line: the kind, and its code, pool or discount. */
export function incentiveSummary(i: Incentive, pools: PoolSummary[]): string {
  switch (i.kind) {
    case 'none':
      return INCENTIVE_KIND_LABELS.none;
    case 'fixed':
      return `Code ${i.code} for everyone`;
    case 'pool': {
      const p = pools.find((x) => x.id === i.pool_id);
      return p ? `Unique code from "${p.name}"` : 'Unique code from a pool';
    }
    default:
      return `${INCENTIVE_KIND_LABELS[i.kind]}: ${i.discount === 'percentage' ? `${i.value}% off` : `${i.value} off`}, ends after ${i.days} days`;
  }
}

function redemptionText(r: StepRedemptions | undefined): string {
  if (!r || r.given === 0) return 'No codes given yet';
  const discount = r.discount.length ? ` · discount given ${r.discount.map((d) => formatMinor(d.minor, d.currency)).join(' · ')}` : '';
  return `${formatCount(r.given)} given · ${formatCount(r.redeemed)} redeemed${discount}`;
}

function StepRow({ prefix, channel, step, pools, redemptions }: { prefix: string; channel: string; step: IncentiveStep; pools: PoolSummary[]; redemptions: StepRedemptions[] }) {
  const incentive = useSWR<Incentive>(`${prefix}/templates/${step.id}/incentive`);
  const [editing, setEditing] = useState(false);
  const r = redemptions.find((x) => x.step_key === `${channel}-template:${step.id}`);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ py: 1, borderTop: 1, borderColor: 'divider', justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      data-testid={`incentive-step-${step.id}`}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
          {step.name}
        </Typography>
        <Typography variant="body2" data-testid="incentive-summary">
          {incentive.data ? incentiveSummary(incentive.data, pools) : '…'}
        </Typography>
        <Typography variant="body2" color="textSecondary" data-testid="incentive-redemptions">
          {redemptionText(r)}
        </Typography>
      </Box>
      <Button variant="outlined" size="small" onClick={() => setEditing(true)} disabled={!incentive.data} sx={{ alignSelf: { xs: 'flex-start', sm: 'center' }, flexShrink: 0 }}>
        Change incentive
      </Button>
      {incentive.data && (
        <StepIncentiveDialog
          open={editing}
          prefix={prefix}
          templateId={step.id}
          stepName={step.name}
          current={incentive.data}
          pools={pools}
          onClose={() => setEditing(false)}
          onSaved={(i) => {
            setEditing(false);
            void incentive.mutate(i, { revalidate: false });
          }}
        />
      )}
    </Stack>
  );
}

/**
 * A campaign's incentives: the code pools with the codes left (a warning under 100), the upload of a pool as CSV,
 * each step's incentive with its editor, and each step's codes given, redeemed and the discount they gave.
 */
export function IncentivesPanel({ prefix, channel, campaignName, steps }: IncentivesPanelProps) {
  const pools = useSWR<PoolSummary[]>(`${prefix}/incentive-pools`);
  const redemptions = useSWR<StepRedemptions[]>(`${prefix}/incentive-redemptions`);
  const [uploading, setUploading] = useState(false);
  return (
    <Card variant="outlined" sx={{ mb: 3 }} data-testid="incentives-panel" aria-label={`Incentives of ${campaignName}`} component="section">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <RedeemIcon color="primary" />
            <Typography variant="h6" component="h2">
              Incentives
            </Typography>
          </Stack>
          <Button variant="outlined" size="small" startIcon={<UploadIcon />} onClick={() => setUploading(true)} sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}>
            Upload codes
          </Button>
        </Stack>
        {!pools.data ? (
          <Skeleton height={40} />
        ) : pools.data.length === 0 ? (
          <Typography color="textSecondary" sx={{ mt: 1 }}>
            No code pools yet. Upload a CSV of unique codes to give each shopper their own.
          </Typography>
        ) : (
          <Box sx={{ mt: 1 }} data-testid="code-pools">
            {pools.data.map((p) => {
              const warning = poolWarning(p);
              return (
                <Box key={p.id} sx={{ py: 0.5 }} data-testid={`code-pool-${p.id}`}>
                  <Typography variant="body1" sx={{ overflowWrap: 'anywhere' }}>
                    <strong>{p.name}</strong>: <span data-testid="pool-remaining">{formatCount(p.remaining)}</span> of {formatCount(p.total)} codes left
                  </Typography>
                  {warning && (
                    <Alert severity={p.remaining === 0 ? 'error' : 'warning'} sx={{ mt: 0.5 }} data-testid="pool-warning">
                      {warning}
                    </Alert>
                  )}
                </Box>
              );
            })}
          </Box>
        )}
        <Box sx={{ mt: 2 }}>
          {steps.map((s) => (
            <StepRow key={s.id} prefix={prefix} channel={channel} step={s} pools={pools.data ?? []} redemptions={redemptions.data ?? []} />
          ))}
        </Box>
      </CardContent>
      <PoolUploadDialog
        open={uploading}
        prefix={prefix}
        onClose={() => setUploading(false)}
        onUploaded={() => {
          setUploading(false);
          void pools.mutate();
        }}
      />
    </Card>
  );
}
