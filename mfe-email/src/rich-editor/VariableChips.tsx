import { Chip, Stack, Typography } from '@mui/material';
import { TEMPLATE_VARIABLES, type TemplateVariable } from '@act/contracts/src/email-api';

/** What each variable becomes when an email is sent. */
const MEANING: Record<TemplateVariable, string> = {
  contactEmail: 'the recipient',
  firstName: 'their first name ("there" when the sender gave none)',
  recoveryUrl: 'the link back to their cart',
  unsubscribeUrl: 'their one-click unsubscribe link',
  cartTotal: 'their cart total, in its currency',
  itemCount: 'how many items are in their cart',
  firstItemName: 'the name of the first item in their cart',
  discountCode: "the step's discount code for them (none: nothing, or the fallback you write)",
};

/**
 * The template variables below an email editor (spec §2, §3, the unsubscribe link, the cart's and the code), each a
 * chip that puts the variable in the content where the cursor is. A fallback may be written in the template:
 * `{{firstName | "friend"}}`.
 */
export function VariableChips({ onInsert, note }: { onInsert: (variable: string) => void; note?: string }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography variant="body2" color="textSecondary">
        Available variables:
      </Typography>
      {TEMPLATE_VARIABLES.map((name) => (
        <Chip
          key={name}
          label={`{{${name}}}`}
          title={MEANING[name]}
          aria-label={`Insert {{${name}}}: ${MEANING[name]}`}
          size="small"
          variant="outlined"
          onClick={() => onInsert(`{{${name}}}`)}
          sx={{ fontFamily: 'monospace' }}
        />
      ))}
      {note && (
        <Typography variant="caption" color="textSecondary">
          {note}
        </Typography>
      )}
    </Stack>
  );
}
