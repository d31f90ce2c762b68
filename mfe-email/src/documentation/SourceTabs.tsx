import type { ReactNode } from 'react';
import { Alert, Chip, Divider, Stack, Typography } from '@mui/material';
import {
  CLICKFUNNELS2_CONTACT_EVENTS,
  CLICKFUNNELS2_PAID_EVENTS,
  SHOPIFY_TOPICS,
  type WebhookSource,
} from '@act/contracts/src/webhook-signing';
import { CodeBlock } from './CodeBlock';
import { TestDeliveryPanel } from './TestDeliveryPanel';

/**
 * One tab per sender (docs/webhooks.md): where our URL goes in that product, which events to tick by their real
 * names, where its secret is, and a test delivery. The URL to paste is each integration's own (Webhook
 * Integrations, on its card, with a Copy button).
 */
function Events({ names }: { names: readonly string[] }) {
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, my: 1 }}>
      {names.map((n) => (
        <Chip key={n} label={n} color="primary" variant="outlined" sx={{ fontFamily: 'monospace' }} />
      ))}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack spacing={1} component="section" aria-label={title}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

function Steps({ children }: { children: ReactNode }) {
  return (
    <Typography component="div">
      <ol style={{ margin: 0, paddingLeft: 20 }}>{children}</ol>
    </Typography>
  );
}

const URL_NOTE = (
  <li>
    In <strong>Webhook Integrations</strong>, copy the integration&apos;s own <strong>Webhook URL</strong> (it ends in{' '}
    <code>/api/webhook/i/…</code>). A delivery to it belongs to that integration whatever funnel it names.
  </li>
);

export function ClickFunnels2Tab() {
  return (
    <Stack spacing={3}>
      <Section title="Connect ClickFunnels 2.0">
        <Steps>
          {URL_NOTE}
          <li>
            In ClickFunnels open <strong>Workspace Settings → Webhooks</strong> and add a{' '}
            <strong>Webhook Endpoint</strong> with that URL (API version 2).
          </li>
          <li>Tick the events that mean &quot;a contact is known&quot;:</li>
        </Steps>
        <Events names={CLICKFUNNELS2_CONTACT_EVENTS} />
        <Typography>and the events that mean &quot;paid&quot;:</Typography>
        <Events names={CLICKFUNNELS2_PAID_EVENTS} />
        <Typography color="textSecondary">
          Any other event is answered 200 and recorded as ignored, so ClickFunnels never retries it.
        </Typography>
      </Section>
      <Section title="Its signing secret">
        <Typography>
          After saving the endpoint, ClickFunnels shows its <code>webhook_secret</code> (also under Workspace Settings →
          Webhooks → the endpoint). On the integration&apos;s card choose <strong>Set secret</strong> and paste it:
          every delivery is then checked against <code>X-Webhook-ClickFunnels-Signature</code> (HMAC-SHA256 of the
          timestamp and the body), and one more than 10 minutes old is refused.
        </Typography>
      </Section>
      <Divider />
      <TestDeliveryPanel source="clickfunnels2" />
    </Stack>
  );
}

export function ClickFunnelsClassicTab() {
  return (
    <Stack spacing={3}>
      <Section title="Connect ClickFunnels Classic">
        <Steps>
          {URL_NOTE}
          <li>
            In the funnel open <strong>Settings → Webhooks</strong>, add a new webhook with that URL for the opt-in
            (contact) and order (purchase) steps, and keep the funnel id on the integration for the plain URL.
          </li>
        </Steps>
        <Typography>
          Supported: contact deliveries (the contact at the top level or under <code>contact</code>) and purchase
          deliveries (under <code>purchase</code>, paid). Other hooks are ignored.
        </Typography>
      </Section>
      <Alert severity="warning">
        ClickFunnels Classic does not sign its deliveries: keep the integration without a secret and its URL private (an
        integration with a secret refuses Classic deliveries).
      </Alert>
      <Divider />
      <TestDeliveryPanel source="clickfunnels_classic" />
    </Stack>
  );
}

export function ShopifyTab() {
  return (
    <Stack spacing={3}>
      <Section title="Connect Shopify">
        <Steps>
          {URL_NOTE}
          <li>
            In the Shopify admin open <strong>Settings → Notifications → Webhooks</strong> and create a webhook (JSON)
            with that URL for each of these topics:
          </li>
        </Steps>
        <Events names={SHOPIFY_TOPICS} />
        <Typography color="textSecondary">
          A checkout with an email or phone and no <code>completed_at</code> becomes a contact, and its{' '}
          <code>abandoned_checkout_url</code> the reminders&apos; checkout link; <code>orders/create</code> marks it
          purchased (matched by the checkout token, else by email or phone).
        </Typography>
      </Section>
      <Section title="Its signing secret">
        <Typography>
          Shopify signs every webhook with the secret shown under the webhooks list (&quot;Your webhooks will be signed
          with …&quot;, or your app&apos;s client secret). Paste it with <strong>Set secret</strong>: deliveries are
          then checked against <code>X-Shopify-Hmac-Sha256</code>.
        </Typography>
      </Section>
      <Divider />
      <TestDeliveryPanel source="shopify" />
    </Stack>
  );
}

export function SignedGenericTab() {
  return (
    <Stack spacing={3}>
      <Section title="Signing your own deliveries">
        <Typography>
          A relay of your own (Zapier, a script) posting the formats of the Testing tab can sign them too: generate a
          secret on the integration&apos;s card, then send
        </Typography>
        <CodeBlock
          label="Signature headers"
          code={[
            'X-Signature-Timestamp: <unix seconds>',
            'X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the secret>',
            'X-Webhook-Id: <your delivery id, the same on every retry (optional)>',
          ].join('\n')}
        />
        <Typography color="textSecondary">
          Deliveries more than 5 minutes away from now are refused; a repeated <code>X-Webhook-Id</code> is answered 200
          as a duplicate and does nothing. With <strong>Require signed deliveries</strong> on (Webhook Integrations),
          every unsigned delivery is refused with 401.
        </Typography>
      </Section>
      <Divider />
      <TestDeliveryPanel source={'generic' satisfies WebhookSource} />
    </Stack>
  );
}
