import { Grid, Stack } from '@mui/material';
import { PageHeader } from '@act/ui-kit';
import { ProviderBanner } from '@act/ui-kit/src/ProviderBanner';
import { RevenuePanel } from '@act/ui-kit/src/Revenue';
import { IncrementalRevenueLine } from '@act/ui-kit/src/Experiments';
import { RedemptionsByStep } from '@act/ui-kit/src/Incentives/RedemptionsByStep';
import type { ContactPage, WebhookIntegration } from '@act/contracts/src/email-api';
import { contactsCountKey, INTEGRATIONS, LoadError, useApi, useTestDataCounts, RefreshButton } from '../shared';
import { StatCards } from './StatCards';
import { RecentActivity } from './RecentActivity';
import { ConfigurationCard } from './ConfigurationCard';
import { AdminToolsCard } from './AdminToolsCard';

/**
 * Dashboard (section 2). The counts come from one-row pages of GET /api/contacts (their `total`) rather than
 * the whole list, so the page stays light at 50,000 contacts. "Abandoned Carts" counts contacts whose
 * reminder went out (status sent): their reminder time passed without a purchase, which is what the
 * product calls an abandoned cart; a pending contact may still buy before its reminder time. A test delivery's
 * contact is in none of the three (each page says how many of its total are tests).
 */
export default function DashboardPage() {
  const { contacts, logs, empty } = useTestDataCounts();
  const purchased = useApi<ContactPage>(contactsCountKey('purchased'));
  const abandoned = useApi<ContactPage>(contactsCountKey('sent'));
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
          stats={{ total: counted(contacts.data), purchased: counted(purchased.data), abandoned: counted(abandoned.data) }}
        />
        <Stack spacing={1}>
          <RevenuePanel basePath="/api/revenue" integrations={integrations.data ?? []} />
          <IncrementalRevenueLine path="/api/revenue/incremental" label="email" />
          <IncrementalRevenueLine path="/api/sms/revenue/incremental" label="SMS" />
        </Stack>
        <RedemptionsByStep />
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

/** A page's total of real contacts: the test deliveries' are listed on Contacts but counted nowhere. */
function counted(page: ContactPage | undefined): number | undefined {
  return page && page.total - page.tests;
}
