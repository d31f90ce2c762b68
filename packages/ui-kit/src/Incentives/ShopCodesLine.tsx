import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import type { ShopCredentialsRequest, ShopCredentialsStatus } from '@act/contracts/src/incentives-api';
import { apiRequest, serverMessage } from '../request';
import { FormDialog } from '../FormDialog';

export interface ShopCodesLineProps {
  /** `/api/email` or `/api/sms`. */
  prefix: string;
  integrationId: number;
  integrationName: string;
  isAdmin: boolean;
}

function statusText(s: ShopCredentialsStatus): string {
  if (!s.platform) return 'None: codes from pools or fixed codes only';
  return `${s.platform === 'shopify' ? 'Shopify' : 'WooCommerce'} ${s.shop} (${s.platform === 'shopify' ? 'admin token' : 'REST key and secret'} set)`;
}

/**
 * Where an integration's steps create unique codes: the shop and whether its credentials are set (never the
 * credentials), with the admin's form (Shopify admin token; WooCommerce REST consumer key and secret), write-only.
 */
export function ShopCodesLine({ prefix, integrationId, integrationName, isAdmin }: ShopCodesLineProps) {
  const url = `${prefix}/integrations/${integrationId}/shop`;
  const status = useSWR<ShopCredentialsStatus>(url);
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<ShopCredentialsRequest>({ platform: 'shopify', shop: '', key: '', secret: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    const s = status.data;
    setForm({ platform: s?.platform ?? 'shopify', shop: s?.shop ?? '', key: '', secret: '' });
    setError(null);
  }, [open, status.data]);

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const body = form.platform === 'shopify' ? { platform: form.platform, shop: form.shop, key: form.key } : form;
      await status.mutate(await apiRequest<ShopCredentialsStatus>('PUT', url, body), { revalidate: false });
      setOpen(false);
    } catch (err) {
      setError(serverMessage(err, 'The shop could not be saved'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ mt: 1.5 }} data-testid="shop-codes">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="textSecondary">
            Shop for unique codes
          </Typography>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="shop-codes-status">
            {status.data ? statusText(status.data) : '…'}
          </Typography>
        </Box>
        {isAdmin && (
          <Button size="small" variant="outlined" onClick={() => setOpen(true)} sx={{ alignSelf: { xs: 'flex-start', sm: 'center' }, flexShrink: 0 }}>
            Set shop
          </Button>
        )}
      </Stack>
      <FormDialog
        open={open}
        title="Shop for unique codes"
        subtitle={integrationName}
        onCancel={() => setOpen(false)}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        submitLabel="Save"
        busy={busy}
        error={error}
        errorTestId="shop-codes-error"
      >
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField select label="Shop" value={form.platform} onChange={(e) => setForm({ ...form, platform: e.target.value as ShopCredentialsRequest['platform'] })}>
            <MenuItem value="shopify">Shopify</MenuItem>
            <MenuItem value="woocommerce">WooCommerce</MenuItem>
          </TextField>
          <TextField
            label={form.platform === 'shopify' ? 'myshopify.com domain' : 'Store URL (https://)'}
            value={form.shop}
            onChange={(e) => setForm({ ...form, shop: e.target.value })}
            required
          />
          <TextField
            label={form.platform === 'shopify' ? 'Admin API access token' : 'Consumer key'}
            type="password"
            autoComplete="off"
            value={form.key}
            onChange={(e) => setForm({ ...form, key: e.target.value })}
            required
            helperText={form.platform === 'shopify' ? 'A custom app token with write_discounts; stored sealed, never shown again' : 'Read/Write REST key; stored sealed, never shown again'}
          />
          {form.platform === 'woocommerce' && (
            <TextField label="Consumer secret" type="password" autoComplete="off" value={form.secret ?? ''} onChange={(e) => setForm({ ...form, secret: e.target.value })} required />
          )}
        </Stack>
      </FormDialog>
    </Box>
  );
}
