import { useFormik } from 'formik';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { CampaignRulesFields, apiRequest, errorMessage } from '@act/ui-kit';
import { smsCampaignSchema, type SmsCampaign, type SmsIntegration } from '@act/contracts/src/sms-api';
import type { CartChangeRuleName } from '@act/contracts/src/timing';
import { SMS_KEYS } from '../shared/keys';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';

interface FormValues {
  name: string;
  /** '' is 'No Integration'. */
  integration_id: string;
  active: boolean;
  on_cart_change: CartChangeRuleName;
  priority: number;
}

export interface CampaignDialogProps {
  open: boolean;
  campaign: SmsCampaign | null;
  integrations: SmsIntegration[];
  onClose: () => void;
}

export function CampaignDialog({ open, campaign, integrations, onClose }: CampaignDialogProps) {
  const notify = useNotify();
  const refetch = useRefetch();
  const editing = campaign !== null;
  const form = useFormik<FormValues>({
    initialValues: {
      name: campaign?.name ?? '',
      integration_id: campaign?.integration_id ? String(campaign.integration_id) : '',
      active: campaign?.active ?? true,
      on_cart_change: campaign?.on_cart_change ?? 'continue',
      priority: campaign?.priority ?? 0,
    },
    validationSchema: smsCampaignSchema,
    onSubmit: async (values) => {
      // 'No Integration' is sent as null, otherwise a number (section 5).
      const body = {
        name: values.name.trim(),
        integration_id: values.integration_id ? Number(values.integration_id) : null,
        active: values.active,
        on_cart_change: values.on_cart_change,
        priority: Number(values.priority),
      };
      try {
        if (editing) await apiRequest('PATCH', `${SMS_KEYS.campaigns}/${campaign.id}`, body);
        else await apiRequest('POST', SMS_KEYS.campaigns, body);
        notify.success(editing ? 'Campaign updated successfully' : 'Campaign created successfully');
        // Integration cards show the campaign's name.
        await refetch(SMS_KEYS.campaigns, SMS_KEYS.integrations);
        onClose();
      } catch (err) {
        notify.error(`${editing ? 'Failed to update campaign' : 'Failed to create campaign'}: ${errorMessage(err)}`);
      }
    },
  });
  const nameError = form.touched.name || form.submitCount > 0 ? form.errors.name : undefined;
  const busy = form.isSubmitting;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      aria-labelledby="campaign-dialog-title"
    >
      <form onSubmit={form.handleSubmit} noValidate>
        <DialogTitle id="campaign-dialog-title">{editing ? 'Edit SMS Campaign' : 'New SMS Campaign'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField
              label="Campaign Name"
              name="name"
              required
              autoFocus
              value={form.values.name}
              onChange={form.handleChange}
              onBlur={form.handleBlur}
              error={!!nameError}
              helperText={nameError ?? ' '}
            />
            <TextField
              select
              label="Integration"
              name="integration_id"
              value={form.values.integration_id}
              onChange={form.handleChange}
              helperText="The SMS webhook integration this campaign belongs to."
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">
                <em>No Integration</em>
              </MenuItem>
              {integrations.map((i) => (
                <MenuItem key={i.id} value={String(i.id)}>
                  {i.name}
                </MenuItem>
              ))}
            </TextField>
            <CampaignRulesFields
              values={form.values}
              priorityError={form.errors.priority}
              onChange={form.handleChange}
              stepNoun="step"
              sentNoun="a reminder"
            />
            <FormControlLabel
              control={<Switch name="active" checked={form.values.active} onChange={form.handleChange} />}
              label="Active"
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy} color="inherit">
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {editing ? 'Update' : 'Create'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
