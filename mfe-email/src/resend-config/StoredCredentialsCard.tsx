import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Divider,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { apiRequest, errorMessage, useAuth, useToast } from '@act/ui-kit';
import { SectionHeader } from '../shared';
import { RESEND_CONFIG, storedText, type ResendConfigStatus } from './config';

/**
 * The API key and from-address stored in the app (admins): sealed by the email service and write-only, so the
 * fields always start empty and the card says only when each was set and its last four characters. The
 * environment's values win over these (spec), and the card says so when they do.
 */
export function StoredCredentialsCard({
  status,
  onSaved,
}: {
  status: ResendConfigStatus | undefined;
  onSaved: () => void;
}) {
  const { isAdmin } = useAuth();
  const { toast } = useToast();
  const [apiKey, setApiKey] = useState('');
  const [from, setFrom] = useState('');
  const [saving, setSaving] = useState(false);

  async function save() {
    const body: Record<string, string> = {};
    if (apiKey.trim()) body.apiKey = apiKey.trim();
    if (from.trim()) body.from = from.trim();
    if (Object.keys(body).length === 0) return;
    setSaving(true);
    try {
      await apiRequest('POST', RESEND_CONFIG, body);
      setApiKey('');
      setFrom('');
      toast({ title: 'Resend settings saved', description: 'Stored sealed; only the last four characters are shown.' });
      onSaved();
    } catch (err) {
      toast({ title: 'Could not save the Resend settings', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  const overridden = [
    status?.apiKeySource === 'env' && status.stored?.apiKey && 'API key',
    status?.fromSource === 'env' && status.stored?.from && 'from-address',
  ].filter(Boolean);
  return (
    <Card sx={{ mt: 3 }} data-testid="stored-credentials">
      <SectionHeader title="Stored in the app" subheader="For deployments that cannot set the environment" />
      <Divider />
      <CardContent sx={{ p: 3 }}>
        <Stack spacing={2}>
          <Typography variant="body2" data-testid="stored-api-key">
            API key: {storedText(status?.stored?.apiKey ?? null)}
          </Typography>
          <Typography variant="body2" data-testid="stored-from">
            From address: {storedText(status?.stored?.from ?? null)}
          </Typography>
          {overridden.length > 0 && (
            <Alert severity="info">
              The environment&apos;s {overridden.join(' and ')} {overridden.length > 1 ? 'are' : 'is'} in use:
              environment settings take precedence over stored values.
            </Alert>
          )}
          {isAdmin ? (
            <>
              <TextField
                label="New API key"
                type="password"
                autoComplete="new-password"
                value={apiKey}
                onChange={(e) => setApiKey(e.target.value)}
                helperText="Write-only: it is sealed and never shown again"
              />
              <TextField
                label="New from address"
                value={from}
                onChange={(e) => setFrom(e.target.value)}
                placeholder="Shop <orders@shop.example>"
                helperText="Write-only like the key"
              />
              <Button
                variant="contained"
                onClick={() => void save()}
                disabled={saving || (!apiKey.trim() && !from.trim())}
                startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
                sx={{ alignSelf: 'flex-start' }}
              >
                Save
              </Button>
            </>
          ) : (
            <Typography variant="body2" color="textSecondary">
              Only an admin can store a key or a from-address.
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
