import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { Box, Button, Divider, FormControlLabel, IconButton, Stack, Switch, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import {
  MAX_HOLDOUT_PERCENT,
  MAX_STEP_VARIANTS,
  MIN_STEP_VARIANTS,
  type CampaignExperiment,
  type CampaignExperimentRequest,
  type ExperimentVariant,
} from '@act/contracts/src/experiments-api';
import type { PoolSummary } from '@act/contracts/src/incentives-api';
import { apiRequest, serverMessage } from '../request';
import { VariantIncentiveFields } from './VariantIncentiveFields';
import { FormDialog } from '../FormDialog';

export interface ExperimentStepChoice {
  /** The template's id. */
  id: number;
  name: string;
}

const LETTERS = 'ABCD';
const blank = (id: string, share: number): ExperimentVariant => ({ id, share, subject: null, content: null, delay: null, incentive: null });
/** Even shares adding up to 100 (the last takes the rounding). */
function evenShares(variants: ExperimentVariant[]): ExperimentVariant[] {
  const each = Math.floor(10000 / variants.length) / 100;
  return variants.map((v, i) => ({ ...v, share: i === variants.length - 1 ? Math.round((100 - each * (variants.length - 1)) * 100) / 100 : each }));
}

export interface ExperimentDialogProps {
  open: boolean;
  base: string;
  campaignId: number;
  channel: 'email' | 'sms';
  steps: ExperimentStepChoice[];
  current: CampaignExperiment;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * The campaign's experiment form: the holdout share, the automatic winner and, per step, 2 to 4 variants with their
 * share of traffic and what each changes (subject and content on email, the text on SMS, the delay, the incentive:
 * any a step can carry, in place of the step's own).
 * The server checks the rules (shares adding up to 100...) and its message is shown as is.
 */
export function ExperimentDialog({ open, base, campaignId, channel, steps, current, onClose, onSaved }: ExperimentDialogProps) {
  const [holdout, setHoldout] = useState(String(current.holdout_percent));
  const [autoWinner, setAutoWinner] = useState(current.auto_winner);
  const [minN, setMinN] = useState(String(current.winner_min_recipients));
  const [variants, setVariants] = useState<Record<number, ExperimentVariant[]>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pools = useSWR<PoolSummary[]>(open ? `/api/${channel}/incentive-pools` : null);

  useEffect(() => {
    if (!open) return;
    setHoldout(String(current.holdout_percent));
    setAutoWinner(current.auto_winner);
    setMinN(String(current.winner_min_recipients));
    setVariants(Object.fromEntries(current.steps.map((s) => [s.template_id, s.variants])));
    setError(null);
  }, [open, current]);

  const setStep = (id: number, vs: ExperimentVariant[]) => setVariants((all) => ({ ...all, [id]: vs }));
  const edit = (id: number, i: number, patch: Partial<ExperimentVariant>) => setStep(id, (variants[id] ?? []).map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const text = (v: string) => (v.trim() === '' ? null : v);
  const num = (v: string) => (v.trim() === '' ? null : Number(v));

  async function submit() {
    const body: CampaignExperimentRequest = {
      holdout_percent: Number(holdout),
      auto_winner: autoWinner,
      winner_min_recipients: Number(minN),
      steps: Object.entries(variants)
        .filter(([, vs]) => vs.length > 0)
        .map(([id, vs]) => ({ template_id: Number(id), variants: vs })),
    };
    setBusy(true);
    setError(null);
    try {
      await apiRequest('PUT', `${base}/${campaignId}/experiment`, body);
      onSaved();
    } catch (err) {
      setError(serverMessage(err, 'Failed to save the experiment'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open={open}
      variant="sheet"
      title="Experiment"
      subtitle="A holdout measures what the reminders add; variants test a step against itself"
      onSubmit={() => void submit()}
      onCancel={onClose}
      submitLabel="Save"
      busy={busy}
      error={error}
      errorTestId="experiment-error"
    >
      <Stack spacing={2}>
        <TextField
          label="Holdout (% of contacts, no message)"
          type="number"
          value={holdout}
          onChange={(e) => setHoldout(e.target.value)}
          slotProps={{ htmlInput: { min: 0, max: MAX_HOLDOUT_PERCENT, step: 1 } }}
          helperText={`0 to ${MAX_HOLDOUT_PERCENT}: held-out contacts get no ${channel === 'email' ? 'email' : 'text'} from this campaign and are measured beside the others`}
        />
        <FormControlLabel control={<Switch checked={autoWinner} onChange={(e) => setAutoWinner(e.target.checked)} />} label="Pick a winner automatically" />
        {autoWinner && (
          <TextField
            label="Recipients per variant before a winner"
            type="number"
            value={minN}
            onChange={(e) => setMinN(e.target.value)}
            helperText="The winner needs a 95% probability of the best revenue per recipient (Bayesian) and takes all new traffic"
          />
        )}
        {steps.map((step) => {
          const vs = variants[step.id] ?? [];
          return (
            <Box key={step.id} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Divider sx={{ mb: 1.5 }} />
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                <Typography component="legend" variant="subtitle2">
                  {step.name}
                </Typography>
                {vs.length === 0 ? (
                  <Button size="small" startIcon={<AddIcon />} onClick={() => setStep(step.id, [blank('A', 50), blank('B', 50)])}>
                    Test variants
                  </Button>
                ) : (
                  <Stack direction="row" spacing={1}>
                    {vs.length < MAX_STEP_VARIANTS && (
                      <Button size="small" startIcon={<AddIcon />} onClick={() => setStep(step.id, evenShares([...vs, blank(LETTERS[vs.length]!, 0)]))}>
                        Add variant
                      </Button>
                    )}
                    <Button size="small" color="inherit" onClick={() => setStep(step.id, [])}>
                      No variants
                    </Button>
                  </Stack>
                )}
              </Stack>
              {vs.map((v, i) => (
                <Stack key={i} spacing={1} sx={{ mt: 1.5, pl: 1, borderLeft: 3, borderColor: 'divider' }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <TextField size="small" label="Variant" value={v.id} onChange={(e) => edit(step.id, i, { id: e.target.value })} sx={{ width: 90 }} />
                    <TextField
                      size="small"
                      label="Share %"
                      type="number"
                      value={String(v.share)}
                      onChange={(e) => edit(step.id, i, { share: Number(e.target.value) })}
                      sx={{ width: 100 }}
                    />
                    <TextField
                      size="small"
                      label={channel === 'email' ? 'Delay (hours)' : 'Delay (minutes)'}
                      type="number"
                      value={v.delay === null ? '' : String(v.delay)}
                      onChange={(e) => edit(step.id, i, { delay: num(e.target.value) })}
                      sx={{ width: 130 }}
                    />
                    {vs.length > MIN_STEP_VARIANTS && (
                      <IconButton aria-label={`Remove variant ${v.id}`} onClick={() => setStep(step.id, evenShares(vs.filter((_, j) => j !== i)))}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    )}
                  </Stack>
                  {channel === 'email' && (
                    <TextField size="small" label="Subject (empty: the step's own)" value={v.subject ?? ''} onChange={(e) => edit(step.id, i, { subject: text(e.target.value) })} />
                  )}
                  <TextField
                    size="small"
                    multiline
                    minRows={2}
                    label={channel === 'email' ? "Content, HTML (empty: the step's own)" : "Message (empty: the step's own)"}
                    value={v.content ?? ''}
                    onChange={(e) => edit(step.id, i, { content: text(e.target.value) })}
                  />
                  <VariantIncentiveFields variant={v.id} value={v.incentive} pools={pools.data ?? []} onChange={(incentive) => edit(step.id, i, { incentive })} />
                </Stack>
              ))}
            </Box>
          );
        })}
      </Stack>
    </FormDialog>
  );
}
