import { Grid, Stack } from '@mui/material';
import { PageHeader } from '@act/ui-kit';
import { ProviderBanner } from '@act/ui-kit/src/ProviderBanner';
import { RevenuePanel } from '@act/ui-kit/src/Revenue';
import { IncrementalRevenueLine } from '@act/ui-kit/src/Experiments';
import type { Paged, WebhookIntegration } from '@act/contracts/src/email-api';
import { contactsCountKey, INTEGRATIONS, LoadError, useApi, useTestDataCounts, RefreshButton } from '../shared';
import { StatCards } from './StatCards';
import { RecentActivity } from './RecentActivity';
import { ConfigurationCard } from './ConfigurationCard';
import { AdminToolsCard } from './AdminToolsCard';

/**
 * Dashboard (section 2). The counts come from one-row pages of GET /api/contacts (their `total`) rather than
 * the whole list, so the page stays light at 50,000 contacts. "Abandoned Carts" counts contacts whose
 * reminder went out (status sent): their reminder time passed without a purchase, which is what the
 * product calls an abandoned cart; a pending contact may still buy before its reminder time.
 */
export default function DashboardPage() {
  const { contacts, logs, empty } = useTestDataCounts();
  const purchased = useApi<Paged<unknown>>(contactsCountKey('purchased'));
  const abandoned = useApi<Paged<unknown>>(contactsCountKey('sent'));
  const integrations = useApi<WebhookIntegration[]>(INTEGRATIONS);

  const failed = [contacts, purchased, abandoned].find((load) => load.error);
  if (failed) return <LoadError what="contacts" error={failed.error} onRetry={() => void failed.mutate()} />;
  if (logs.error) return <LoadError what="email logs" error={logs.error} onRetry={() => void logs.mutate()} />;

  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle="Abandoned cart activity at a glance"
        actions={<RefreshButton lists={['contacts', 'emailLogs', 'reminderDelay']} />}
      />
      <ProviderBanner provider="resend" />
      <Stack spacing={3}>
        <StatCards
          stats={{ total: contacts.data?.total, purchased: purchased.data?.total, abandoned: abandoned.data?.total }}
        />
        <Stack spacing={1}>
          <RevenuePanel basePath="/api/revenue" integrations={integrations.data ?? []} />
          <IncrementalRevenueLine path="/api/revenue/incremental" label="email" />
          <IncrementalRevenueLine path="/api/sms/revenue/incremental" label="SMS" />
        </Stack>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, lg: 7 }}>
            <RecentActivity logs={logs.data?.items} />
          </Grid>
          <Grid size={{ xs: 12, lg: 5 }}>
            <Stack spacing={3}>
              <ConfigurationCard />
              <AdminToolsCard empty={empty} />
            </Stack>
          </Grid>
        </Grid>
      </Stack>
    </>
  );
}
