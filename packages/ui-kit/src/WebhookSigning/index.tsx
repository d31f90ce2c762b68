import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import WarningIcon from '@mui/icons-material/WarningAmberOutlined';
import VerifiedIcon from '@mui/icons-material/VerifiedUserOutlined';
import {
  WEBHOOK_SECRET_MAX,
  WEBHOOK_SECRET_MIN,
  WEBHOOK_SOURCE_LABELS,
  WEBHOOK_SOURCES,
  integrationSigningPatchSchema,
  type DeliveryInfo,
  type IntegrationSigning,
  type IntegrationSigningPatch,
  type WebhookSource,
} from '@act/contracts/src/webhook-signing';
// Through the shared package, not relative paths: this module is bundled into each remote that imports it (by path),
// and the toast context must be the one singleton the shell provides.
import { ConfirmDialog, apiRequest, errorMessage, useToast } from '@act/ui-kit';

/**
 * Webhook signing on both sides (docs/webhooks.md): an integration's own URL with a Copy button, whether its
 * deliveries are signed, the write-only secret (set, rotate, remove: admins), the "Require signed deliveries" switch
 * and the sender / verification / outcome chips of the Webhook Events lists. One set of blocks, so the email and SMS
 * screens say the same thing the same way.
 */

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The URL in full (it wraps), with a Copy button that says when it copied. */
export function CopyableUrl({ url, label = 'Webhook URL' }: { url: string; label?: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Box
        component="code"
        aria-label={label}
        sx={{
          fontFamily: 'monospace',
          fontSize: 12,
          bgcolor: 'action.hover',
          px: 0.75,
          py: 0.25,
          borderRadius: 1,
          overflowWrap: 'anywhere',
          minWidth: 0,
          flex: 1,
        }}
      >
        {url}
      </Box>
      <Tooltip title={copied === null ? 'Copy' : copied ? 'Copied' : 'Copy failed: select the text'}>
        <IconButton
          size="small"
          aria-label={`Copy ${label}`}
          onClick={async () => setCopied(await copyText(url))}
          onMouseLeave={() => setCopied(null)}
        >
          <CopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

/** "Signed (secret set)" or the warning that anyone with the URL can post. */
export function SigningStatus({ signing }: Pick<IntegrationSigning, 'signing'>) {
  const pinned = signing.source ? ` · ${WEBHOOK_SOURCE_LABELS[signing.source]}` : '';
  return signing.has_secret ? (
    <Chip size="small" color="success" variant="outlined" icon={<VerifiedIcon />} label={`Secret set${pinned}`} />
  ) : (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      icon={<WarningIcon />}
      label={`Unsigned: anyone with the URL can post${pinned}`}
      // Wraps on a narrow card instead of spilling out of its border.
      sx={{ maxWidth: '100%', height: 'auto', minHeight: 24, '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
    />
  );
}

export interface WebhookEndpointProps extends IntegrationSigning {
  isAdmin: boolean;
  /** Opens the signing dialog (set or rotate). */
  onSetSecret: () => void;
  onRemoveSecret: () => void;
}

/** The card block: own URL, signing status and (admins) Set / Rotate / Remove. */
export function WebhookEndpoint({ webhook_url, signing, isAdmin, onSetSecret, onRemoveSecret }: WebhookEndpointProps) {
  return (
    <Stack spacing={1} data-testid="webhook-endpoint">
      <Typography variant="body2" color="textSecondary">
        Webhook URL
      </Typography>
      <CopyableUrl url={webhook_url} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <SigningStatus signing={signing} />
        {isAdmin && (
          <>
            <Button size="small" startIcon={<KeyIcon />} onClick={onSetSecret}>
              {signing.has_secret ? 'Rotate secret' : 'Set secret'}
            </Button>
            {signing.has_secret && (
              <Button size="small" color="error" onClick={onRemoveSecret}>
                Remove secret
              </Button>
            )}
          </>
        )}
      </Stack>
    </Stack>
  );
}

/** 32 random bytes as hex, made in the browser: the server never hands a secret out. */
export function generateSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface WebhookSigningDialogProps {
  open: boolean;
  integrationName: string;
  currentSource: WebhookSource | null;
  hasSecret: boolean;
  onClose: () => void;
  /** Saves the patch; resolves true when saved (the dialog then closes). */
  onSave: (patch: IntegrationSigningPatch) => Promise<boolean>;
}

/** Paste the sender's secret (ClickFunnels, Shopify) or generate one (our scheme), and pin the sender. */
export function WebhookSigningDialog({
  open,
  integrationName,
  currentSource,
  hasSecret,
  onClose,
  onSave,
}: WebhookSigningDialogProps) {
  const [secret, setSecret] = useState('');
  const [source, setSource] = useState<WebhookSource | ''>(currentSource ?? '');
  const [generated, setGenerated] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Stripe only: a restricted key that reads Checkout Sessions (their line items); write-only like the secret.
  const [apiKey, setApiKey] = useState('');

  function reset() {
    setSecret('');
    setApiKey('');
    setGenerated(false);
    setError(null);
    setSource(currentSource ?? '');
  }

  async function save() {
    const patch: IntegrationSigningPatch = {
      webhook_secret: secret,
      webhook_source: source || null,
      ...(source === 'stripe' && apiKey.trim() ? { sender_api_key: apiKey.trim() } : {}),
    };
    try {
      await integrationSigningPatchSchema.validate(patch);
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    setBusy(true);
    const ok = await onSave(patch);
    setBusy(false);
    if (ok) {
      reset();
      onClose();
    }
  }

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      slotProps={{ transition: { onEnter: reset } }}
      fullWidth
      maxWidth="sm"
      aria-labelledby="signing-title"
    >
      <DialogTitle id="signing-title">
        {hasSecret ? 'Rotate signing secret' : 'Set signing secret'} · {integrationName}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>
            Paste the secret your sender shows (ClickFunnels: Workspace Settings → Webhooks → the endpoint&apos;s
            secret; Shopify: Settings → Notifications → Webhooks, &quot;Your webhooks will be signed with&quot;), or
            generate one for your own relay. Once saved it is never shown again.
          </DialogContentText>
          <TextField
            label="Signing secret"
            value={secret}
            onChange={(e) => {
              setSecret(e.target.value);
              setGenerated(false);
              setError(null);
            }}
            error={Boolean(error)}
            helperText={error ?? `${WEBHOOK_SECRET_MIN} to ${WEBHOOK_SECRET_MAX} characters, no spaces`}
            autoComplete="off"
            slotProps={{ htmlInput: { spellCheck: false, 'data-testid': 'signing-secret' } }}
            fullWidth
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button
              size="small"
              variant="outlined"
              onClick={() => {
                setSecret(generateSecret());
                setGenerated(true);
                setError(null);
              }}
            >
              Generate a secret
            </Button>
            {generated && (
              <Button size="small" startIcon={<CopyIcon />} onClick={() => void copyText(secret)}>
                Copy
              </Button>
            )}
          </Stack>
          {generated && (
            <Alert severity="info">Copy this secret into your sender now: it will not be shown again.</Alert>
          )}
          <TextField
            select
            label="Sender"
            value={source}
            onChange={(e) => setSource(e.target.value as WebhookSource | '')}
            helperText="Pinning the sender uses its signature scheme for every delivery to this URL"
            fullWidth
          >
            <MenuItem value="">Recognise from each delivery</MenuItem>
            {WEBHOOK_SOURCES.map((s) => (
              <MenuItem key={s} value={s}>
                {WEBHOOK_SOURCE_LABELS[s]}
              </MenuItem>
            ))}
          </TextField>
          {source === 'stripe' && (
            <TextField
              label="Stripe restricted key (optional)"
              value={apiKey}
              onChange={(e) => {
                setApiKey(e.target.value);
                setError(null);
              }}
              helperText="rk_… with read access to Checkout Sessions: each expired session's line items are fetched once. Never shown again."
              autoComplete="off"
              slotProps={{ htmlInput: { spellCheck: false } }}
              fullWidth
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy || secret.trim() === ''}>
          Save secret
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Confirmation before removing a secret (deliveries are then accepted unsigned again). */
export function RemoveSecretDialog(props: {
  open: boolean;
  integrationName: string;
  loading: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={props.open}
      title="Remove signing secret"
      description={`Deliveries to ${props.integrationName} will be accepted unsigned: anyone with the URL can post.`}
      confirmLabel="Remove secret"
      destructive
      loading={props.loading}
      onClose={props.onClose}
      onConfirm={props.onConfirm}
    />
  );
}

/** The side's "Require signed deliveries" switch; admins change it, everyone sees it. */
export function RequireSignedSwitch(props: {
  checked: boolean | undefined;
  isAdmin: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <FormControlLabel
      control={
        <Switch
          checked={props.checked ?? false}
          disabled={!props.isAdmin || props.checked === undefined}
          onChange={(e) => props.onChange(e.target.checked)}
        />
      }
      label="Require signed deliveries"
    />
  );
}

const VERIFICATION_COLORS = { verified: 'success', unsigned: 'default', rejected: 'error' } as const;
const OUTCOME_COLORS: Record<DeliveryInfo['outcome'], 'success' | 'info' | 'default' | 'warning' | 'error'> = {
  created: 'success',
  updated: 'info',
  purchase: 'success',
  duplicate: 'default',
  ignored: 'default',
  invalid: 'error',
  rejected: 'error',
  handshake: 'default',
};

/** Sender, verification (with the rejection's reason on hover) and outcome of one delivery. */
export function DeliveryChips({ event }: { event: Partial<DeliveryInfo> }) {
  if (!event.source) return null;
  const verification = event.verification ?? 'unsigned';
  const reason = event.verification_reason;
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5, minWidth: 0, maxWidth: '100%' }}>
      <Chip size="small" variant="outlined" label={WEBHOOK_SOURCE_LABELS[event.source]} />
      <Tooltip title={reason ?? ''} disableHoverListener={!reason}>
        <Chip
          size="small"
          variant="outlined"
          color={VERIFICATION_COLORS[verification]}
          label={verification === 'rejected' && reason ? `Rejected: ${reason}` : capitalise(verification)}
          // A long reason is cut (its whole text on hover), never wider than the cell on a phone.
          sx={{ maxWidth: 'min(320px, 100%)' }}
        />
      </Tooltip>
      {event.outcome && <Chip size="small" color={OUTCOME_COLORS[event.outcome]} label={capitalise(event.outcome)} />}
    </Stack>
  );
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The three filters of the Webhook Events lists, as select options. */
export const DELIVERY_FILTER_OPTIONS = {
  source: WEBHOOK_SOURCES.map((s) => ({ value: s, label: WEBHOOK_SOURCE_LABELS[s] })),
  verification: (['verified', 'unsigned', 'rejected'] as const).map((v) => ({ value: v, label: capitalise(v) })),
  outcome: (['created', 'updated', 'purchase', 'duplicate', 'ignored', 'invalid', 'rejected'] as const).map((v) => ({
    value: v,
    label: capitalise(v),
  })),
};

interface SigningTarget extends IntegrationSigning {
  id: number;
  name: string;
}

/**
 * The set / rotate / remove flow for a list of integrations: the cards call `openSet` / `openRemove`, the page
 * renders `dialogs` once. `patchUrl(id)` is the integration's PATCH URL on that side.
 */
export function useSigningActions(opts: { patchUrl: (id: number) => string; onChanged: () => Promise<unknown> }) {
  const { toast } = useToast();
  const [target, setTarget] = useState<SigningTarget | null>(null);
  const [mode, setMode] = useState<'set' | 'remove' | null>(null);
  const [busy, setBusy] = useState(false);

  async function patch(t: SigningTarget, body: IntegrationSigningPatch, done: string): Promise<boolean> {
    try {
      await apiRequest('PATCH', opts.patchUrl(t.id), body);
      toast({ title: done, description: t.name });
      await opts.onChanged();
      return true;
    } catch (err) {
      toast({ title: 'Error updating signing', description: errorMessage(err), variant: 'destructive' });
      return false;
    }
  }

  const dialogs = (
    <>
      <WebhookSigningDialog
        open={mode === 'set'}
        integrationName={target?.name ?? ''}
        currentSource={target?.signing.source ?? null}
        hasSecret={target?.signing.has_secret ?? false}
        onClose={() => setMode(null)}
        onSave={(body) =>
          patch(target!, body, target!.signing.has_secret ? 'Signing secret rotated' : 'Signing secret set')
        }
      />
      <RemoveSecretDialog
        open={mode === 'remove'}
        integrationName={target?.name ?? ''}
        loading={busy}
        onClose={() => setMode(null)}
        onConfirm={async () => {
          setBusy(true);
          await patch(target!, { webhook_secret: null }, 'Signing secret removed');
          setBusy(false);
          setMode(null);
        }}
      />
    </>
  );
  return {
    openSet: (t: SigningTarget) => {
      setTarget(t);
      setMode('set');
    },
    openRemove: (t: SigningTarget) => {
      setTarget(t);
      setMode('remove');
    },
    dialogs,
  };
}

export type DeliveryFilterName = keyof typeof DELIVERY_FILTER_OPTIONS;
export type DeliveryFilterValues = Partial<Record<DeliveryFilterName, string>>;
const DELIVERY_FILTER_LABELS: Record<DeliveryFilterName, string> = {
  source: 'Source',
  verification: 'Verification',
  outcome: 'Outcome',
};

/** Source / Verification / Outcome selects of the Webhook Events lists ('' = all). */
export function DeliveryFilters({
  value,
  onChange,
}: {
  value: DeliveryFilterValues;
  onChange: (v: DeliveryFilterValues) => void;
}) {
  return (
    <>
      {(Object.keys(DELIVERY_FILTER_OPTIONS) as DeliveryFilterName[]).map((name) => (
        <TextField
          key={name}
          select
          size="small"
          label={DELIVERY_FILTER_LABELS[name]}
          value={value[name] ?? ''}
          onChange={(e) => onChange({ ...value, [name]: e.target.value })}
          sx={{ width: { xs: '100%', sm: 190 } }}
        >
          <MenuItem value="">All</MenuItem>
          {DELIVERY_FILTER_OPTIONS[name].map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      ))}
    </>
  );
}
