import type { ReactNode } from 'react';
import { Box, Card, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import PeopleIcon from '@mui/icons-material/PeopleAltOutlined';
import PurchaseIcon from '@mui/icons-material/ShoppingCartCheckoutOutlined';
import AbandonedIcon from '@mui/icons-material/RemoveShoppingCartOutlined';
import { formatCount } from '@act/ui-kit';

export interface DashboardStats {
  total: number;
  purchased: number;
  abandoned: number;
}

type Tone = 'primary' | 'success' | 'warning';

function StatCard({
  label,
  value,
  icon,
  tone,
  hint,
}: {
  label: string;
  value: number | undefined;
  icon: ReactNode;
  tone: Tone;
  hint: string;
}) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent sx={{ p: 3 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="textSecondary" sx={{ fontWeight: 600 }}>
              {label}
            </Typography>
            <Typography variant="h4" component="output" sx={{ display: 'block', fontWeight: 700, mt: 1, lineHeight: 1.1 }} aria-label={label}>
              {value === undefined ? <Skeleton width={64} /> : formatCount(value)}
            </Typography>
            <Typography variant="caption" color="textSecondary" sx={{ display: 'block', mt: 1 }}>
              {hint}
            </Typography>
          </Box>
          <Box
            aria-hidden
            sx={{
              flexShrink: 0,
              width: 44,
              height: 44,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              bgcolor: `${tone}.light`,
              color: `${tone}.main`,
            }}
          >
            {icon}
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Section 2: Total Contacts, Completed Purchases, Abandoned Carts. */
export function StatCards({ stats }: { stats: Partial<DashboardStats> }) {
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 4 }}>
        <StatCard
          label="Total Contacts"
          value={stats.total}
          icon={<PeopleIcon />}
          tone="primary"
          hint="Contacts received from your funnels"
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <StatCard
          label="Completed Purchases"
          value={stats.purchased}
          icon={<PurchaseIcon />}
          tone="success"
          hint="Contacts who completed their purchase"
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <StatCard
          label="Abandoned Carts"
          value={stats.abandoned}
          icon={<AbandonedIcon />}
          tone="warning"
          hint="Reminder time passed without a purchase"
        />
      </Grid>
    </Grid>
  );
}
