import { useFormik } from 'formik';
import { Box, Dialog, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import type { CartChangeRuleName } from '@act/contracts/src/timing';
import { DEFAULT_TEMPLATE_TYPE, campaignSchema } from '@act/contracts/src/email-api';
import { CampaignRulesFields } from '@act/ui-kit';
import type { CampaignRequest, EmailCampaign } from './api';
import { ActiveSwitch, FormDialogActions } from '../shared/FormDialogParts';

/**
 * Spec §5 campaign form: name required ('Campaign name is required'); description optional; type defaults to
 * abandoned_cart; active true. The contracts' rule, the one svc-email applies to the request.
 */
export const campaignFormSchema = campaignSchema;

export interface CampaignFormValues {
  name: string;
  type: string;
  description: string;
  active: boolean;
  on_cart_change: CartChangeRuleName;
  priority: number;
}

export function campaignFormValues(campaign: EmailCampaign | null): CampaignFormValues {
  return {
    name: campaign?.name ?? '',
    type: campaign?.type || DEFAULT_TEMPLATE_TYPE,
    description: campaign?.description ?? '',
    active: campaign?.active ?? true,
    on_cart_change: campaign?.on_cart_change ?? 'continue',
    priority: campaign?.priority ?? 0,
  };
}

/** The body of POST and PUT (spec §7: name, description, type, active); a blank type is the default one. */
export function campaignRequestOf(values: CampaignFormValues): Required<CampaignRequest> {
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    type: values.type.trim() || DEFAULT_TEMPLATE_TYPE,
    active: values.active,
    on_cart_change: values.on_cart_change,
    priority: Number(values.priority),
  };
}

export interface CampaignDialogProps {
  open: boolean;
  /** null: a new campaign. */
  editing: EmailCampaign | null;
  onClose: () => void;
  /** Resolves true when saved (the dialog then closes). */
  onSubmit: (request: CampaignRequest) => Promise<boolean>;
}

export function CampaignDialog({ open, editing, onClose, onSubmit }: CampaignDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="campaign-dialog-title">
      {open && <CampaignForm key={editing?.id ?? 'new'} editing={editing} onClose={onClose} onSubmit={onSubmit} />}
    </Dialog>
  );
}

function CampaignForm({ editing, onClose, onSubmit }: Omit<CampaignDialogProps, 'open'>) {
  const form = useFormik<CampaignFormValues>({
    initialValues: campaignFormValues(editing),
    validationSchema: campaignFormSchema,
    onSubmit: async (values) => {
      if (await onSubmit(campaignRequestOf(values))) onClose();
    },
  });
  const busy = form.isSubmitting;
  const nameError = (form.touched.name || form.submitCount > 0) && form.errors.name;

  return (
    <Box component="form" noValidate onSubmit={form.handleSubmit}>
      <DialogTitle id="campaign-dialog-title">{editing ? 'Edit Campaign' : 'Create Campaign'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <TextField
            name="name"
            label="Campaign Name"
            required
            autoFocus
            value={form.values.name}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={Boolean(nameError)}
            helperText={nameError || undefined}
            disabled={busy}
          />
          <TextField
            name="type"
            label="Campaign Type"
            value={form.values.type}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            helperText={`Templates created in this campaign take this type (default ${DEFAULT_TEMPLATE_TYPE}).`}
            disabled={busy}
            slotProps={{ htmlInput: { sx: { fontFamily: 'monospace' } } }}
          />
          <TextField
            name="description"
            label="Description"
            value={form.values.description}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            multiline
            minRows={2}
            helperText="Optional"
            disabled={busy}
          />
          <CampaignRulesFields
            values={form.values}
            priorityError={form.errors.priority}
            onChange={form.handleChange}
            disabled={busy}
            stepNoun="template"
            sentNoun="an email"
          />
          <ActiveSwitch checked={form.values.active} onChange={form.handleChange} disabled={busy} />
        </Stack>
      </DialogContent>
      <FormDialogActions busy={busy} onCancel={onClose} sx={{ px: 3, pb: 2 }}>
        {editing ? 'Update Campaign' : 'Create Campaign'}
      </FormDialogActions>
    </Box>
  );
}
