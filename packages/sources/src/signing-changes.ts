/** What the rule below needs of an integration (either side's). */
export interface SigningState {
  id: number;
  funnel_id: string;
  active: boolean;
  /** It holds a signing secret. */
  signed: boolean;
}

/** The state of a stored integration (either side's document; the secret as stored, sealed). */
export function signingStateOf(d: {
  id: number;
  funnel_id: string;
  active: boolean;
  webhook_secret?: string | null;
}): SigningState {
  return { id: d.id, funnel_id: d.funnel_id, active: d.active, signed: Boolean(d.webhook_secret) };
}

/**
 * Whether a change to the integrations weakens what an admin signed, and so is an admin's to make (docs/webhooks.md
 * "Who may turn signing off"). Setting or removing the secret itself is refused to others by service-kit's
 * readSigningPatch; these are the other ways round it, each leaving a signed funnel taking unsigned deliveries:
 * pausing or deleting a signed integration (the email side then files the funnel's deliveries under its default
 * integration; the SMS side may then have another integration of the funnel made active), moving it off its funnel,
 * and making or pointing or activating another integration at a funnel a signed one serves.
 * `before` null = a creation; `after` null = a deletion; `others` = the side's other integrations.
 */
export function weakensSigning(
  before: SigningState | null,
  after: SigningState | null,
  others: readonly SigningState[],
): string | null {
  if (before?.signed) {
    if (!after) return 'delete a signed integration';
    if (!after.signed) return 'remove the signing secret';
    if (before.active && !after.active) return 'pause a signed integration';
    if (after.funnel_id !== before.funnel_id) return 'change the funnel of a signed integration';
  }
  if (after && !after.signed) {
    const twin = others.some((o) => o.id !== after.id && o.signed && o.funnel_id === after.funnel_id);
    const joins = !before || before.funnel_id !== after.funnel_id || (!before.active && after.active);
    if (twin && joins) return 'add another integration to a funnel with a signed integration';
  }
  return null;
}
