import { useRef, useState } from 'react';
import { useFormik } from 'formik';
import * as yup from 'yup';
import {
  Box,
  Button,
  Chip,
  FormControlLabel,
  InputAdornment,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { apiRequest, errorMessage } from '@act/ui-kit';
import { FormDialog, formikField } from '@act/ui-kit/src/FormDialog';
import {
  MAX_SEQUENCE_ORDER,
  SMS_MAX_LENGTH,
  SMS_PLACEHOLDERS,
  smsMessages,
  smsTemplateSchema,
  type SmsTemplate,
} from '@act/contracts/src/sms-api';
import { usesPlaceholder } from '@act/contracts/src/placeholders';
import { typicalSmsSegments } from '@act/contracts/src/sms-segments';
import type { PreviewChoice } from '@act/ui-kit/src/Preview/PreviewContactPicker';
import { SmsContactPreview } from '../preview/SmsContactPreview';
import { SMS_KEYS } from '../shared/keys';
import { smsCounter } from '../shared/format';
import { useNotify } from '../shared/notify';
import { useRefetch } from '../shared/refetch';

/**
 * The contract's template rules, with two form-side differences: the order is asked for (the dialog
 * proposes highest + 1), and the 160 limit counts exactly what the live counter shows.
 */
export const templateFormSchema = smsTemplateSchema.shape({
  message: yup
    .string()
    .test('required', smsMessages.messageRequired, (v) => !!v && v.trim() !== '')
    .test('max', smsMessages.messageMax, (v) => (v ?? '').length <= SMS_MAX_LENGTH),
  sequence_order: yup
    .number()
    .typeError(smsMessages.sequenceOrderMin)
    .integer(smsMessages.sequenceOrderInteger)
    .min(1, smsMessages.sequenceOrderMin)
    .max(MAX_SEQUENCE_ORDER, smsMessages.sequenceOrderMax)
    .required(smsMessages.sequenceOrderMin),
});

interface FormValues {
  campaign_id: number;
  name: string;
  message: string;
  sequence_order: string;
  delay_minutes: string;
  active: boolean;
}

/** A new template's order: the campaign's highest order plus 1 (section 5). */
export function nextSequenceOrder(templates: readonly Pick<SmsTemplate, 'sequence_order'>[]): number {
  return templates.reduce((max, t) => Math.max(max, t.sequence_order), 0) + 1;
}

export function MessageCounter({ message }: { message: string }) {
  const { text, over } = smsCounter(message);
  return (
    <Typography
      component="span"
      variant="caption"
      data-testid="sms-counter"
      sx={{ fontWeight: 600, color: over ? 'error.main' : 'text.secondary', whiteSpace: 'nowrap' }}
    >
      {text}
    </Typography>
  );
}

/**
 * The counter counts the template as written; what is sent has the placeholders filled in: say how long it will be
 * with typical values, and in how many segments carriers bill it (GSM-7 or UCS-2), so a template that fits 160 as
 * written but not once sent is noticed here. A real message past these segments gets a shorter item name.
 */
export function FilledInLength({ message }: { message: string }) {
  if (!usesPlaceholder(message, [...SMS_PLACEHOLDERS.map((p): string => p.key), 'recovery_url'])) return null;
  const { units, segments, encoding } = typicalSmsSegments(message);
  return (
    <Typography
      variant="caption"
      data-testid="sms-filled-length"
      sx={{ display: 'block', mt: 0.5, color: segments > 1 ? 'warning.main' : 'text.secondary' }}
    >
      With a typical first name, cart, code and a 60-character checkout link filled in: {units} characters,{' '}
      {segments} {segments === 1 ? 'segment' : 'segments'} ({encoding}){segments > 1 ? ' (more than one SMS)' : ''}.
    </Typography>
  );
}

export interface TemplateDialogProps {
  open: boolean;
  campaignId: number;
  campaignName: string;
  /** null: a new template. */
  template: SmsTemplate | null;
  /** Order proposed for a new template. */
  defaultOrder: number;
  onClose: () => void;
  /** Edit mode only: asks the page to confirm and delete. */
  onDelete?: (template: SmsTemplate) => void;
}

export function TemplateDialog({
  open,
  campaignId,
  campaignName,
  template,
  defaultOrder,
  onClose,
  onDelete,
}: TemplateDialogProps) {
  const notify = useNotify();
  const refetch = useRefetch();
  const editing = template !== null;
  const messageRef = useRef<HTMLTextAreaElement | null>(null);
  const [choice, setChoice] = useState<PreviewChoice | null>(null);

  const form = useFormik<FormValues>({
    initialValues: {
      campaign_id: campaignId,
      name: template?.name ?? '',
      message: template?.message ?? '',
      sequence_order: String(template?.sequence_order ?? defaultOrder),
      delay_minutes: String(template?.delay_minutes ?? 0),
      active: template?.active ?? true,
    },
    validationSchema: templateFormSchema,
    onSubmit: async (values) => {
      const body = {
        campaign_id: campaignId,
        name: values.name.trim(),
        message: values.message.trim(),
        sequence_order: Number(values.sequence_order),
        delay_minutes: values.delay_minutes === '' ? 0 : Number(values.delay_minutes),
        active: values.active,
      };
      try {
        if (editing) await apiRequest('PATCH', `${SMS_KEYS.templates}/${template.id}`, body);
        else await apiRequest('POST', SMS_KEYS.templates, body);
        notify.success(editing ? 'Template updated successfully' : 'Template created successfully');
        // Campaign cards show the template count.
        await refetch(SMS_KEYS.templates, SMS_KEYS.campaigns);
        onClose();
      } catch (err) {
        notify.error(`${editing ? 'Failed to update template' : 'Failed to create template'}: ${errorMessage(err)}`);
      }
    },
  });

  const show = (name: keyof FormValues) => form.touched[name] || form.submitCount > 0;
  const err = (name: keyof FormValues) => (show(name) ? (form.errors[name] as string | undefined) : undefined);
  // The 160 rule shows as soon as it is broken, without waiting for blur: the counter already went red.
  const messageError = form.errors.message === smsMessages.messageMax ? form.errors.message : err('message');
  const busy = form.isSubmitting;

  const insertPlaceholder = (token: string) => {
    const el = messageRef.current;
    const value = form.values.message;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const next = value.slice(0, start) + token + value.slice(end);
    void form.setFieldValue('message', next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };


  return (
    <FormDialog
      open={open}
      title={editing ? 'Edit SMS Template' : 'New SMS Template'}
      subtitle={campaignName}
      onSubmit={form.handleSubmit}
      onCancel={onClose}
      busy={busy}
      submitLabel={editing ? 'Update' : 'Create'}
      secondaryAction={
        editing &&
        onDelete && (
          <Button color="error" onClick={() => onDelete(template)} disabled={busy}>
            Delete
          </Button>
        )
      }
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <TextField label="Template Name" required autoFocus {...formikField(form, 'name', ' ')} />
        <Box>
          <TextField
            label="Message"
            name="message"
            required
            multiline
            minRows={4}
            value={form.values.message}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            inputRef={messageRef}
            error={!!messageError}
            helperText={
              <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
                <span>{messageError ?? 'One SMS holds at most 160 characters.'}</span>
                <MessageCounter message={form.values.message} />
              </Box>
            }
            slotProps={{ formHelperText: { component: 'div' } as object }}
          />
          <FilledInLength message={form.values.message} />
          <Stack
            direction="row"
            spacing={1}
            sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
            data-testid="placeholder-hint"
          >
            <Typography variant="caption" color="textSecondary">
              Placeholders (click to insert):
            </Typography>
            {SMS_PLACEHOLDERS.map((p) => (
              <Tooltip key={p.key} title={`Replaced by the contact's ${p.label.toLowerCase()}`}>
                <Chip
                  size="small"
                  variant="outlined"
                  onClick={() => insertPlaceholder(p.token)}
                  aria-label={`Insert ${p.token}`}
                  label={
                    <>
                      {p.label}{' '}
                      <Box
                        component="code"
                        sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', color: 'primary.main' }}
                      >
                        {p.token}
                      </Box>
                    </>
                  }
                  sx={{ fontWeight: 500 }}
                />
              </Tooltip>
            ))}
          </Stack>
          <SmsContactPreview message={form.values.message} templateId={template?.id ?? null} choice={choice} onChoice={setChoice} />
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label="Sequence Order"
            type="number"
            {...formikField(form, 'sequence_order', 'Templates are sent in this order.')}
            slotProps={{ htmlInput: { min: 1, step: 1 } }}
          />
          <TextField
            label="Delay"
            type="number"
            {...formikField(form, 'delay_minutes', 'Wait after the previous message.')}
            slotProps={{
              htmlInput: { min: 0, step: 1 },
              input: { endAdornment: <InputAdornment position="end">minutes</InputAdornment> },
            }}
          />
        </Stack>
        <FormControlLabel
          control={<Switch name="active" checked={form.values.active} onChange={form.handleChange} />}
          label="Active"
        />
      </Stack>
    </FormDialog>
  );
}
