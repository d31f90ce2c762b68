import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Alert, Box, Card, CardContent, Chip, CircularProgress, Stack, Tab, Tabs, Typography } from '@mui/material';
import { PageHeader } from '@act/ui-kit';
import { CodeBlock } from './CodeBlock';
import { REQUIRED_EVENTS, TEST_EXAMPLES, webhookEndpoint } from './content';
import { ClickFunnels2Tab, ClickFunnelsClassicTab, ShopifyTab, SignedGenericTab } from './SourceTabs';

// Swagger UI is large: fetched when its tab is first opened, never with the page (issue 15).
const ApiReference = lazy(() => import('./ApiReference'));

/**
 * /documentation (spec §2): three tabs, ClickFunnels Setup / Testing / Phase 2, then one tab per sender (issue 13:
 * ClickFunnels 2.0, ClickFunnels Classic, Shopify, and signing the spec's own formats) with a test delivery each.
 * The spec's tabs need no server: their endpoint URL is this site's origin plus /api/webhook.
 */
export default function DocumentationPage() {
  const [tab, setTab] = useState(0);
  const endpoint = webhookEndpoint();

  return (
    <>
      <PageHeader
        title="Documentation"
        subtitle="How to connect a ClickFunnels funnel to the Abandoned Cart Tracker and check that it works."
      />
      <Card>
        <Box sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}>
          <Tabs
            value={tab}
            onChange={(_e, value: number) => setTab(value)}
            aria-label="Documentation sections"
            variant="scrollable"
            allowScrollButtonsMobile
          >
            <Tab label="ClickFunnels Setup" id="doc-tab-0" aria-controls="doc-panel-0" />
            <Tab label="Testing" id="doc-tab-1" aria-controls="doc-panel-1" />
            <Tab label="Phase 2" id="doc-tab-2" aria-controls="doc-panel-2" />
            <Tab label="ClickFunnels 2.0" id="doc-tab-3" aria-controls="doc-panel-3" />
            <Tab label="ClickFunnels Classic" id="doc-tab-4" aria-controls="doc-panel-4" />
            <Tab label="Shopify" id="doc-tab-5" aria-controls="doc-panel-5" />
            <Tab label="Signed deliveries" id="doc-tab-6" aria-controls="doc-panel-6" />
            <Tab label="API reference" id="doc-tab-7" aria-controls="doc-panel-7" />
          </Tabs>
        </Box>
        <CardContent sx={{ p: { xs: 2, md: 4 } }}>
          <TabPanel index={0} value={tab}>
            <SetupTab endpoint={endpoint} />
          </TabPanel>
          <TabPanel index={1} value={tab}>
            <TestingTab endpoint={endpoint} />
          </TabPanel>
          <TabPanel index={2} value={tab}>
            <PhaseTwoTab />
          </TabPanel>
          <TabPanel index={3} value={tab}>
            <ClickFunnels2Tab />
          </TabPanel>
          <TabPanel index={4} value={tab}>
            <ClickFunnelsClassicTab />
          </TabPanel>
          <TabPanel index={5} value={tab}>
            <ShopifyTab />
          </TabPanel>
          <TabPanel index={6} value={tab}>
            <SignedGenericTab />
          </TabPanel>
          <TabPanel index={7} value={tab}>
            <Suspense fallback={<CircularProgress aria-label="Loading the API reference" />}>
              <ApiReference />
            </Suspense>
          </TabPanel>
        </CardContent>
      </Card>
    </>
  );
}

function TabPanel({ index, value, children }: { index: number; value: number; children: ReactNode }) {
  return (
    <div role="tabpanel" hidden={value !== index} id={`doc-panel-${index}`} aria-labelledby={`doc-tab-${index}`}>
      {value === index && children}
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

function SetupTab({ endpoint }: { endpoint: string }) {
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
            <li>Choose the reminder delay in minutes (1 to 720) and the email template, keep it Active, and save.</li>
          </ol>
        </Typography>
      </Step>
      <Step number={2} title="Configure the webhook in ClickFunnels">
        <Typography sx={{ mb: 1.5 }}>In the funnel&apos;s settings, add a webhook with this endpoint URL:</Typography>
        <CodeBlock label="Webhook endpoint URL" code={endpoint} />
        <Typography sx={{ mt: 2, mb: 1 }}>Select these events (all three are required):</Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          {REQUIRED_EVENTS.map((event) => (
            <Chip key={event} label={event} color="primary" variant="outlined" sx={{ fontFamily: 'monospace' }} />
          ))}
        </Stack>
        <Alert severity="info" sx={{ mt: 2 }}>
          These are the tracker&apos;s own event names, for a relay that reshapes deliveries. ClickFunnels 2.0,
          ClickFunnels Classic and Shopify post their own events: see their tabs for the names to tick, each
          integration&apos;s own URL and its signing secret.
        </Alert>
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
