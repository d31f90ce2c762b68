import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { PageHeader } from '@act/ui-kit';
import type { WebhookIntegration } from '@act/contracts/src/email-api';
import type { SmsIntegration } from '@act/contracts/src/sms-api';
import { WEBHOOK_SOURCE_LABELS, WEBHOOK_SOURCES, type WebhookSource } from '@act/contracts/src/webhook-signing';
import { INTEGRATIONS, useApi } from '../shared';
import { CodeBlock } from './CodeBlock';
import { REQUIRED_EVENTS, TEST_EXAMPLES, webhookEndpoint } from './content';
import { SENDER_TABS, SenderGuide, type ConnectTarget } from './SourceTabs';

// Swagger UI is large: fetched when its tab is first opened, never with the page.
const ApiReference = lazy(() => import('./ApiReference'));

/** The SMS side's integrations, for a "How to connect" opened from an SMS card (its own API, through the gateway). */
const SMS_INTEGRATIONS = '/api/sms-webhook-integrations';

/** "A, B and C". */
const senderList = (labels: string[]) =>
  labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : (labels[0] ?? '');

type TabKey = 'setup' | 'testing' | 'phase2' | WebhookSource | 'api';

const isSource = (v: string | null): v is WebhookSource =>
  v !== null && (WEBHOOK_SOURCES as readonly string[]).includes(v);

/** The sender most of the integrations were set up for (their signing sender); null when none names one. */
function commonSender(integrations: readonly { signing: { source: WebhookSource | null } }[]): WebhookSource | null {
  const counts = new Map<WebhookSource, number>();
  for (const i of integrations)
    if (i.signing.source) counts.set(i.signing.source, (counts.get(i.signing.source) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * The tab the page opens on: the sender asked for; else the sender of the integration the page was opened for
 * (the first real sender when it has none yet: the reader came to connect one); else the sender the user's
 * integrations use; else the specification's first tab.
 */
export function openingTab(
  sender: string | null,
  target: { signing: { source: WebhookSource | null } } | null,
  integrations: readonly { signing: { source: WebhookSource | null } }[] | undefined,
): TabKey {
  if (isSource(sender)) return sender;
  if (target) return target.signing.source ?? SENDER_TABS[0]!.source;
  return (integrations && commonSender(integrations)) ?? 'setup';
}

/**
 * /documentation (spec §2): the spec's three tabs, ClickFunnels Setup / Testing / Phase 2, then one tab per sender
 * of the contracts' list with a test delivery each, and the API reference. "How to connect" on an
 * integration's card opens it as `?integration=<id>` (with `&side=sms` from an SMS card, `&sender=` when the
 * integration names its sender): that sender's tab, with the integration's own URL written into the steps.
 */
export default function DocumentationPage() {
  const [params] = useSearchParams();
  const side = params.get('side') === 'sms' ? 'sms' : 'email';
  const targetId = Number(params.get('integration')) || null;
  const emailIntegrations = useApi<WebhookIntegration[]>(INTEGRATIONS);
  const smsIntegrations = useApi<SmsIntegration[]>(side === 'sms' && targetId ? SMS_INTEGRATIONS : null);
  const found =
    targetId === null
      ? null
      : ((side === 'sms' ? smsIntegrations.data : emailIntegrations.data)?.find((i) => i.id === targetId) ?? null);
  const target: ConnectTarget | null = found && {
    id: found.id,
    name: found.name,
    webhook_url: found.webhook_url,
    side,
  };
  const [chosen, setChosen] = useState<TabKey | null>(null);
  const tab = chosen ?? openingTab(params.get('sender'), found, emailIntegrations.data);
  const endpoint = webhookEndpoint();

  const tabs: { key: TabKey; label: string; panel: ReactNode }[] = [
    { key: 'setup', label: 'ClickFunnels Setup', panel: <SetupTab endpoint={endpoint} onOpen={setChosen} /> },
    { key: 'testing', label: 'Testing', panel: <TestingTab endpoint={endpoint} /> },
    { key: 'phase2', label: 'Phase 2', panel: <PhaseTwoTab /> },
    ...SENDER_TABS.map(({ source, label }) => ({
      key: source,
      label,
      panel: <SenderGuide source={source} target={target} />,
    })),
    {
      key: 'api',
      label: 'API reference',
      panel: (
        <Suspense fallback={<CircularProgress aria-label="Loading the API reference" />}>
          <ApiReference />
        </Suspense>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Documentation"
        subtitle="How to connect a ClickFunnels funnel to the Abandoned Cart Tracker and check that it works."
      />
      {targetId !== null && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="connect-target">
          {target ? (
            <>
              How to connect <strong>{target.name}</strong>: its Webhook URL is written into the steps. Another sender?
              Choose its tab.
            </>
          ) : (
            'Loading the integration…'
          )}
        </Alert>
      )}
      <Card>
        <Box sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}>
          <Tabs
            value={tab}
            onChange={(_e, value: TabKey) => setChosen(value)}
            aria-label="Documentation sections"
            variant="scrollable"
            allowScrollButtonsMobile
          >
            {tabs.map((t) => (
              <Tab
                key={t.key}
                value={t.key}
                label={t.label}
                id={`doc-tab-${t.key}`}
                aria-controls={`doc-panel-${t.key}`}
              />
            ))}
          </Tabs>
        </Box>
        <CardContent sx={{ p: { xs: 2, md: 4 } }}>
          {tabs.map((t) => (
            <TabPanel key={t.key} name={t.key} value={tab}>
              {t.panel}
            </TabPanel>
          ))}
        </CardContent>
      </Card>
    </>
  );
}

function TabPanel({ name, value, children }: { name: TabKey; value: TabKey; children: ReactNode }) {
  return (
    <div role="tabpanel" hidden={value !== name} id={`doc-panel-${name}`} aria-labelledby={`doc-tab-${name}`}>
      {value === name && children}
    </div>
  );
}

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} component="section" aria-label={`Step ${number}: ${title}`}>
      <Box
        aria-hidden
        sx={{
          flex: '0 0 auto',
          width: 36,
          height: 36,
          borderRadius: '50%',
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          display: 'grid',
          placeItems: 'center',
          fontWeight: 700,
        }}
      >
        {number}
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Step {number}: {title}
        </Typography>
        {children}
      </Box>
    </Stack>
  );
}

function SetupTab({ endpoint, onOpen }: { endpoint: string; onOpen: (tab: TabKey) => void }) {
  return (
    <Stack spacing={4}>
      <Typography color="textSecondary">
        Each funnel sends its contact and purchase events to this tracker. A contact that has not purchased by its
        reminder time is due an abandoned-cart reminder.
      </Typography>
      <Step number={1} title="Create a webhook integration">
        <Typography component="div">
          <ol style={{ margin: 0, paddingLeft: 20 }}>
            <li>
              Open <strong>Webhook Integrations</strong> and click <strong>Add New Integration</strong>.
            </li>
            <li>Give it a name you will recognise, e.g. the funnel&apos;s name.</li>
            <li>
              Enter the <strong>Funnel ID</strong> exactly as ClickFunnels shows it: events are matched to an
              integration by this id, character for character. Events without a funnel id go to the integration with
              funnel id <code>default</code>.
            </li>
            <li>
              Choose the reminder delay in minutes (1 to 720) and the email campaign (or one email template), keep it
              Active, and save.
            </li>
          </ol>
        </Typography>
      </Step>
      <Step number={2} title="Configure the webhook in ClickFunnels">
        {/* ClickFunnels itself has none of the event names below: its own steps come first, before any list. */}
        <Alert severity="info" sx={{ mb: 2 }} data-testid="setup-own-senders">
          <Typography variant="body2" sx={{ mb: 1 }}>
            {senderList(SENDER_TABS.filter((t) => t.source !== 'generic').map((t) => t.label))} post their own events,
            not the names below: follow their steps, with each integration&apos;s own URL and signing secret.
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {SENDER_TABS.filter((t) => t.source !== 'generic').map((t) => (
              <Button key={t.source} size="small" variant="outlined" onClick={() => onOpen(t.source)}>
                {WEBHOOK_SOURCE_LABELS[t.source]} steps
              </Button>
            ))}
          </Stack>
        </Alert>
        <Typography sx={{ mb: 1.5 }}>
          A funnel or relay posting this tracker&apos;s own format (the Testing tab&apos;s bodies) sends them to this
          endpoint URL:
        </Typography>
        <CodeBlock label="Webhook endpoint URL" code={endpoint} wrap />
        <Typography sx={{ mt: 2, mb: 1 }}>with these events (all three are required):</Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          {REQUIRED_EVENTS.map((event) => (
            <Chip key={event} label={event} color="primary" variant="outlined" sx={{ fontFamily: 'monospace' }} />
          ))}
        </Stack>
      </Step>
      <Step number={3} title="Test the connection">
        <Typography component="div">
          <ol style={{ margin: 0, paddingLeft: 20 }}>
            <li>Opt in on the funnel with a test email address (or send one of the examples of the Testing tab).</li>
            <li>
              Open <strong>Webhook Events</strong>: the delivery is listed with its type and raw payload.
            </li>
            <li>
              Open <strong>Contacts</strong>: the contact is there as <em>pending</em>, with its reminder time.
            </li>
            <li>
              Complete a purchase with the same contact: its status becomes <em>purchased</em> and no reminder is due.
            </li>
          </ol>
        </Typography>
      </Step>
    </Stack>
  );
}

function TestingTab({ endpoint }: { endpoint: string }) {
  return (
    <Stack spacing={4}>
      <Typography color="textSecondary">
        Send any of these bodies with <code>POST</code> and <code>Content-Type: application/json</code> to {endpoint}.
        Each delivery appears under Webhook Events; contact events create or update a contact and purchase events mark
        it purchased.
      </Typography>
      {TEST_EXAMPLES.map((example) => (
        <Box component="section" key={example.title} aria-label={example.title}>
          <Typography variant="h6" component="h2">
            {example.title}
          </Typography>
          <Typography color="textSecondary" sx={{ mb: 1.5 }}>
            {example.description}
          </Typography>
          <CodeBlock label={`${example.title} body`} code={example.body} />
          <Box sx={{ mt: 1.5 }}>
            <CodeBlock label={`${example.title} with curl`} code={curlFor(endpoint, example.body)} />
          </Box>
        </Box>
      ))}
    </Stack>
  );
}

function curlFor(endpoint: string, body: string): string {
  const compact = JSON.stringify(JSON.parse(body));
  return `curl -X POST '${endpoint}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${compact}'`;
}

function PhaseTwoTab() {
  return (
    <Stack spacing={3}>
      <Typography variant="h6" component="h2">
        Phase 2: real email sending
      </Typography>
      <Alert severity="info">
        A real send of the reminder email through the email provider is planned for phase 2. For now, when a
        contact&apos;s reminder time passes without a purchase, only a log entry with the status <code>would_send</code>{' '}
        is made: it shows under Email Logs and in the dashboard&apos;s Recent Activity as &lsquo;Would Send&rsquo;.
      </Alert>
      <Typography component="div">
        What phase 2 adds:
        <ul style={{ marginTop: 8 }}>
          <li>Sending the campaign&apos;s active templates in order, each after its delay, through Resend.</li>
          <li>Never sending to an unsubscribed address, and never sending after a purchase.</li>
          <li>Test sends from the template pages already go through the provider today.</li>
        </ul>
      </Typography>
    </Stack>
  );
}
