import type { ChangeEvent } from 'react';
import { MenuItem, Stack, TextField } from '@mui/material';
import type { CartChangeRuleName } from '@act/contracts/src/timing';

export interface CampaignRulesFieldsProps {
  values: { on_cart_change: CartChangeRuleName; priority: number | string };
  /** The priority's validation message, if any. */
  priorityError?: string;
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  disabled?: boolean;
  /** What one step of the campaign is called on this side ("template" on email, "step" on SMS). */
  stepNoun: string;
  /** What went out before the cart changed ("an email", "a reminder"). */
  sentNoun: string;
}

/**
 * A campaign's flow rules, the same on both channels: what a changed cart does to the sequence, and the campaign's
 * priority when one person is in two campaigns. Field names are the API's (`on_cart_change`, `priority`), so a
 * formik form passes its own values and handleChange.
 */
export function CampaignRulesFields({ values, priorityError, onChange, disabled, stepNoun, sentNoun }: CampaignRulesFieldsProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField
        select
        name="on_cart_change"
        label="When the cart changes"
        value={values.on_cart_change}
        onChange={onChange}
        helperText={`After ${sentNoun} went out and the shopper changed the cart.`}
        disabled={disabled}
        sx={{ flex: 2 }}
      >
        <MenuItem value="continue">Continue with the next {stepNoun}</MenuItem>
        <MenuItem value="restart">Restart from the first {stepNoun}</MenuItem>
      </TextField>
      <TextField
        name="priority"
        label="Priority"
        type="number"
        value={values.priority}
        onChange={onChange}
        error={!!priorityError}
        helperText={priorityError ?? '0-100: higher wins when a person is in two campaigns.'}
        disabled={disabled}
        slotProps={{ htmlInput: { min: 0, max: 100, step: 1 } }}
        sx={{ flex: 1 }}
      />
    </Stack>
  );
}
