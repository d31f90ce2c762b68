import { useRef } from 'react';
import { Button, Card, CardContent, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import LinkIcon from '@mui/icons-material/LinkOutlined';
import { useToast } from '@act/ui-kit';

/** The inbound endpoint: the site origin plus /api/webhook (section 2). */
export function webhookUrl(): string {
  return `${window.location.origin}/api/webhook`;
}

async function copyText(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No Clipboard API (an insecure origin) or no permission: the older selection copy still works there.
    if (!input) return false;
    input.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

export function EndpointCard() {
  const { toast } = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  const url = webhookUrl();

  async function copy() {
    if (await copyText(url, inputRef.current)) toast({ title: 'URL Copied', description: url });
    else toast({ title: 'Copy failed', description: 'Select the URL and copy it by hand.', variant: 'destructive' });
  }

  return (
    <Card sx={{ mb: 3 }}>
      <CardContent sx={{ p: 3 }}>
        <Typography variant="h6" sx={{ fontWeight: 700 }}>
          Webhook Endpoint
        </Typography>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5, mb: 2 }}>
          Point your funnel&apos;s webhooks at this URL. Every delivery is recorded below.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            value={url}
            size="small"
            label="Webhook endpoint URL"
            inputRef={inputRef}
            onFocus={(e) => e.target.select()}
            slotProps={{
              htmlInput: { readOnly: true, sx: { fontFamily: 'monospace' } },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <LinkIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Button variant="contained" startIcon={<CopyIcon />} onClick={copy} sx={{ flexShrink: 0 }}>
            Copy
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
