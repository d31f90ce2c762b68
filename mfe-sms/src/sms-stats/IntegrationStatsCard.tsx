import { Box, Card, CardContent, Chip, Divider, LinearProgress, Stack, Typography } from '@mui/material';
import type { SmsIntegrationStats } from '@act/contracts/src/sms-api';
import { deliveryRate, duplicatePhonesPreview } from '../shared/format';
import { Field } from '../shared/ui';

export function DuplicatePhones({ phones }: { phones: readonly string[] }) {
  if (phones.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary">
        None
      </Typography>
    );
  }
  const { shown, more } = duplicatePhonesPreview(phones);
  return (
    <Stack direction="row" spacing={0.75} sx={{ flexWrap: 'wrap', rowGap: 0.75 }} data-testid="duplicate-phones">
      {shown.map((p) => (
        <Chip
          key={p}
          size="small"
          variant="outlined"
          label={p}
          sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontWeight: 500 }}
        />
      ))}
      {more && <Chip size="small" label={more} sx={{ bgcolor: 'grey.100' }} />}
    </Stack>
  );
}

export function IntegrationStatsCard({ stats: s }: { stats: SmsIntegrationStats }) {
  const rate = deliveryRate(s.delivered_count, s.total_sms_sent);
  return (
    <Card component="article" aria-label={s.integration_name}>
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', mb: 2 }}>
          <Typography variant="h6" component="h3" sx={{ fontWeight: 700 }}>
            {s.integration_name}
          </Typography>
          <Typography
            variant="body2"
            color="textSecondary"
          >{`${s.unique_phones} unique ${s.unique_phones === 1 ? 'phone' : 'phones'}`}</Typography>
        </Stack>
        <Box sx={{ mb: 2 }}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 0.5 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              Delivery rate
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 700 }} data-testid="delivery-rate">
              {`${rate}%`}
            </Typography>
          </Stack>
          <LinearProgress
            variant="determinate"
            value={rate}
            color={s.total_sms_sent === 0 ? 'inherit' : rate >= 90 ? 'success' : rate >= 60 ? 'warning' : 'error'}
            sx={{ height: 8, borderRadius: 4 }}
            aria-label="Delivery rate"
          />
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 2 }}>
          <Field label="Total sent">{s.total_sms_sent}</Field>
          <Field label="Delivered">{s.delivered_count}</Field>
          <Field label="Failed">{s.failed_count}</Field>
          <Field label="Purchases">{s.purchases_recorded}</Field>
          <Field label="Duplicates sent">{s.duplicates_sent}</Field>
          <Field label="Duplicate blocked">{s.skipped_duplicate_count}</Field>
          <Field label="Toll-free blocked">{s.blocked_toll_free_count}</Field>
          <Field label="Awaiting status">{s.sent_count}</Field>
          <Field label="Queued">{s.queued_count ?? 0}</Field>
        </Box>
        <Divider sx={{ my: 2 }} />
        <Typography
          variant="caption"
          color="textSecondary"
          sx={{ display: 'block', fontWeight: 500, textTransform: 'uppercase', letterSpacing: '0.04em', mb: 1 }}
        >
          Duplicate phones
        </Typography>
        <DuplicatePhones phones={s.duplicate_phones} />
      </CardContent>
    </Card>
  );
}
