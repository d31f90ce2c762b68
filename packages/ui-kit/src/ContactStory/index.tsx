/**
 * The contact page of either side: who the person is (identity, integration, the cart the sender gave) and one
 * timeline of everything about them across both channels, newest first, from one gateway call per page
 * (`GET /api/contacts/:id/timeline` or `/api/sms-contacts/:id/timeline`). Imported by path
 * (`@act/ui-kit/src/ContactStory`), like the revenue panel: only the contact pages carry it.
 */
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import useSWR from 'swr';
import { Alert, Box, Button, Chip, CircularProgress, Link, Paper, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import type { TimelineContact, TimelineEntry, TimelineKind, TimelinePage, TimelineSide } from '@act/contracts/src/timeline';
import { apiRequest, errorMessage } from '../request';
import { PageHeader } from '../PageHeader';
import { Loading } from '../Loading';
import { ErrorCard } from '../ErrorCard';
import { DateTime, formatMoney, NO_VALUE } from '../format';
import { CartCard } from './CartCard';

/** Where each side's contact page lives (the shell's routes). */
export const contactPath = (side: TimelineSide, id: number) => (side === 'email' ? `/contacts/${id}` : `/sms-contacts/${id}`);
const timelineUrl = (side: TimelineSide, id: number, before?: string) =>
  `/api/${side === 'email' ? 'contacts' : 'sms-contacts'}/${id}/timeline${before ? `?before=${encodeURIComponent(before)}` : ''}`;

const SIDE_LABEL: Record<TimelineSide, string> = { email: 'Email', sms: 'SMS' };
const KIND_LABEL: Record<TimelineKind, string> = {
  delivery: 'Delivery',
  message: 'Message',
  provider: 'Provider',
  purchase: 'Purchase',
  unsubscribe: 'Unsubscribe',
  opt_out: 'Opt-out',
  staff: 'Staff',
};
const KIND_COLOR: Record<TimelineKind, 'default' | 'primary' | 'success' | 'warning' | 'error' | 'info'> = {
  delivery: 'default',
  message: 'primary',
  provider: 'info',
  purchase: 'success',
  unsubscribe: 'warning',
  opt_out: 'warning',
  staff: 'default',
};
const SENDER_LABEL: Record<string, string> = {
  generic: 'Generic',
  clickfunnels2: 'ClickFunnels 2.0',
  clickfunnels_classic: 'ClickFunnels Classic',
  shopify: 'Shopify',
  stripe: 'Stripe',
  woocommerce: 'WooCommerce',
};

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {children ?? NO_VALUE}
      </Typography>
    </Box>
  );
}

/** Why no reminder goes, where that leaves the contact waiting or "sent" (its reminder time passed without one). */
function heldReason(c: TimelineContact): string | null {
  return c.reminders_held && (c.status === 'sent' || c.status === 'pending') ? c.reminders_held : null;
}

/** The status as every screen writes it: never "sent" for a reminder nobody received. */
function statusLabel(c: TimelineContact): string {
  if (heldReason(c)) return 'Held';
  if (c.status === 'sent' && c.simulated) return 'Sent (simulated)';
  return c.status ? c.status[0]!.toUpperCase() + c.status.slice(1) : NO_VALUE;
}

function Identity({ contact, others }: { contact: TimelineContact; others: TimelineContact[] }) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5 }} data-testid="contact-identity">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } }}>
        <Field label="Email">{contact.email}</Field>
        <Field label="Phone">{contact.phone}</Field>
        <Field label="Contact ID">{contact.contact_id}</Field>
        <Field label="Integration">
          {contact.integration_name ?? (contact.integration_id === null ? 'No Integration' : `Integration ${contact.integration_id}`)}
          {contact.funnel_id && (
            <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
              Funnel {contact.funnel_id}
            </Typography>
          )}
        </Field>
        <Field label="Status">
          <span data-testid="contact-status">{statusLabel(contact)}</span>
          {heldReason(contact) && (
            <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }} data-testid="held-reason">
              {heldReason(contact)}
            </Typography>
          )}
        </Field>
        <Field label="Created">
          <DateTime value={contact.created_at} />
        </Field>
        <Field label="Purchased">{contact.purchased_at ? <DateTime value={contact.purchased_at} /> : NO_VALUE}</Field>
        <Field label="First name">{contact.first_name}</Field>
      </Box>
      {others.length > 0 && (
        <Typography variant="body2" sx={{ mt: 2, overflowWrap: 'anywhere' }} data-testid="other-contacts">
          Same person:{' '}
          {others.map((o, i) => (
            <span key={`${o.side}-${o.id}`}>
              {i > 0 && ', '}
              <Link component={RouterLink} to={contactPath(o.side, o.id)}>
                {SIDE_LABEL[o.side]} contact {o.contact_id}
                {o.integration_name ? ` (${o.integration_name})` : ''}
              </Link>
            </span>
          ))}
        </Typography>
      )}
    </Paper>
  );
}

function EntryRow({ e }: { e: TimelineEntry }) {
  return (
    <Box
      component="li"
      data-testid="timeline-entry"
      data-kind={e.kind}
      data-side={e.side}
      sx={{ display: 'grid', gap: { xs: 0.5, sm: 2 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '170px minmax(0, 1fr)' }, py: 1.5, borderTop: 1, borderColor: 'divider' }}
    >
      <Typography variant="body2" color="textSecondary" component="div">
        <DateTime value={e.at} />
      </Typography>
      <Box sx={{ minWidth: 0 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
          <Chip size="small" variant="outlined" label={SIDE_LABEL[e.side]} />
          <Chip size="small" color={KIND_COLOR[e.kind]} label={KIND_LABEL[e.kind]} />
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {e.title}
          </Typography>
        </Stack>
        {e.kind === 'delivery' && (
          <Typography variant="caption" color="textSecondary" sx={{ display: 'block', mt: 0.5 }}>
            From {SENDER_LABEL[e.source ?? 'generic'] ?? e.source} · {e.verification === 'verified' ? 'signature verified' : e.verification === 'rejected' ? 'signature refused' : 'unsigned'}
          </Typography>
        )}
        {e.kind === 'purchase' && (
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {formatMoney(e.amount ?? null, e.currency ?? null)}
            {e.attributed &&
              ` · credited to the ${SIDE_LABEL[e.attributed.channel]} reminder${e.attributed.step ? ` step ${e.attributed.step}` : ''} of `}
            {e.attributed && <DateTime value={e.attributed.sent_at} />}
            {e.attributed?.simulated && ' (simulated: nobody received it)'}
          </Typography>
        )}
        {e.detail && (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5, overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            {e.detail.length > 300 ? `${e.detail.slice(0, 300)}…` : e.detail}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

export interface ContactStoryProps {
  side: TimelineSide;
  id: number;
  /** The list the page is reached from (its title and path), for the way back. */
  back: { label: string; to: string };
}

/** A whole contact page: header, identity, cart, and the timeline with "Show older" paging. */
export function ContactStory({ side, id, back }: ContactStoryProps) {
  const { data, error, mutate } = useSWR<TimelinePage>(Number.isSafeInteger(id) && id > 0 ? timelineUrl(side, id) : null);
  const [older, setOlder] = useState<{ entries: TimelineEntry[]; next: string | null; for: TimelinePage } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);

  const backLink = (
    <Button component={RouterLink} to={back.to} startIcon={<ArrowBackIcon />} size="small">
      {back.label}
    </Button>
  );
  if (!Number.isSafeInteger(id) || id <= 0) return <ErrorCard title="Contact not found" message="This address names no contact." />;
  if (error && !data)
    return (
      <>
        {backLink}
        <ErrorCard title="Could not load this contact" message={errorMessage(error)} onRetry={() => void mutate()} />
      </>
    );
  if (!data) return <Loading />;

  // Older pages belong to the first page they were loaded under; a refreshed first page starts over.
  const extra = older && older.for === data ? older : null;
  const entries = [...data.entries, ...(extra?.entries ?? [])];
  const next = extra ? extra.next : data.next;
  const { contact } = data;
  const others = data.contacts.filter((c) => !(c.side === contact.side && c.id === contact.id));

  async function showOlder() {
    if (!next || !data) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await apiRequest<TimelinePage>('GET', timelineUrl(side, id, next));
      setOlder({ entries: [...(extra?.entries ?? []), ...page.entries], next: page.next, for: data });
    } catch (err) {
      setOlderError(errorMessage(err));
    } finally {
      setLoadingOlder(false);
    }
  }

  return (
    <>
      {backLink}
      <PageHeader
        title={contact.first_name || contact.email || contact.phone || contact.contact_id}
        subtitle={`${SIDE_LABEL[side]} contact ${contact.contact_id}${contact.integration_name ? ` · ${contact.integration_name}` : ''}`}
      />
      <Stack spacing={2}>
        <Identity contact={contact} others={others} />
        {contact.cart && <CartCard cart={contact.cart} />}
        <Paper variant="outlined" sx={{ p: 2.5 }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
            Timeline
          </Typography>
          <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
            Everything about this person on both channels, newest first.
          </Typography>
          {data.unavailable.map((s) => (
            <Alert key={s} severity="warning" sx={{ mb: 1 }}>
              The {SIDE_LABEL[s]} side did not answer: its entries are missing below. Refresh to try again.
            </Alert>
          ))}
          {entries.length === 0 ? (
            <Typography variant="body2" color="textSecondary">
              Nothing recorded yet.
            </Typography>
          ) : (
            <Box component="ol" aria-label="Timeline" sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {entries.map((e) => (
                <EntryRow key={e.key} e={e} />
              ))}
            </Box>
          )}
          {olderError && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {olderError}
            </Alert>
          )}
          {next && (
            <Button sx={{ mt: 1 }} variant="outlined" onClick={() => void showOlder()} disabled={loadingOlder} startIcon={loadingOlder ? <CircularProgress size={14} /> : undefined}>
              Show older
            </Button>
          )}
        </Paper>
      </Stack>
    </>
  );
}
