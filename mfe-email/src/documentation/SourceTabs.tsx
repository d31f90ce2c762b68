import type { ComponentType, ReactNode } from 'react';
import { Alert, Chip, Divider, Stack, Typography } from '@mui/material';
import {
  CLICKFUNNELS2_CONTACT_EVENTS,
  CLICKFUNNELS2_PAID_EVENTS,
  SHOPIFY_TOPICS,
  STRIPE_CONTACT_EVENTS,
  STRIPE_PAID_EVENTS,
  WEBHOOK_SOURCE_LABELS,
  WOOCOMMERCE_PAID_STATUSES,
  WOOCOMMERCE_TOPICS,
  WOOCOMMERCE_UNPAID_STATUSES,
  WEBHOOK_SOURCES,
  type WebhookSource,
} from '@act/contracts/src/webhook-signing';
import { CodeBlock } from './CodeBlock';
import { TestDeliveryPanel } from './TestDeliveryPanel';

/** The integration a "How to connect" link opened the page for: its own URL goes into the steps. */
export interface ConnectTarget {
  id: number;
  name: string;
  webhook_url: string;
  side: 'email' | 'sms';
}

export interface SenderGuideProps {
  target?: ConnectTarget | null;
}

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

/** The first step of every sender: the integration's own URL, written out when the page knows which integration. */
function UrlStep({ target }: SenderGuideProps) {
  if (!target)
    return (
      <li>
        In <strong>Webhook Integrations</strong>, copy the integration&apos;s own <strong>Webhook URL</strong> (it ends
        in <code>/api/webhook/i/…</code>). A delivery to it belongs to that integration whatever funnel it names.
      </li>
    );
  return (
    <li>
      Copy the Webhook URL of <strong>{target.name}</strong>: a delivery to it belongs to that integration whatever
      funnel it names.
      <CodeBlock label={`Webhook URL of ${target.name}`} code={target.webhook_url} wrap />
    </li>
  );
}

/** The test delivery is the email side's (its integrations); an SMS integration's page still offers it. */
function TestDelivery({ source, target }: { source: WebhookSource } & SenderGuideProps) {
  return <TestDeliveryPanel source={source} initialIntegrationId={target?.side === 'email' ? target.id : undefined} />;
}

export function ClickFunnels2Tab({ target }: SenderGuideProps) {
  return (
    <Stack spacing={3}>
      <Section title="Connect ClickFunnels 2.0">
        <Steps>
          <UrlStep target={target} />
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
      <TestDelivery source="clickfunnels2" target={target} />
    </Stack>
  );
}

export function ClickFunnelsClassicTab({ target }: SenderGuideProps) {
  return (
    <Stack spacing={3}>
      <Section title="Connect ClickFunnels Classic">
        <Steps>
          <UrlStep target={target} />
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
      <TestDelivery source="clickfunnels_classic" target={target} />
    </Stack>
  );
}

export function ShopifyTab({ target }: SenderGuideProps) {
  return (
    <Stack spacing={3}>
      <Section title="Connect Shopify">
        <Steps>
          <UrlStep target={target} />
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
      <TestDelivery source="shopify" target={target} />
    </Stack>
  );
}

export function StripeTab({ target }: SenderGuideProps) {
  return (
    <Stack spacing={3}>
      <Section title="Connect Stripe Checkout">
        <Steps>
          <UrlStep target={target} />
          <li>
            In the Stripe Dashboard open <strong>Developers → Webhooks</strong> (Workbench → Webhooks), choose{' '}
            <strong>Add destination</strong> (an endpoint of your account) with that URL, and select the event that
            means &quot;the shopper left the checkout&quot;:
          </li>
        </Steps>
        <Events names={STRIPE_CONTACT_EVENTS} />
        <Typography>and the events that mean &quot;paid&quot;:</Typography>
        <Events names={STRIPE_PAID_EVENTS} />
        <Typography color="textSecondary">
          An expired session with an email or phone becomes a contact: its amount, its currency and, when the Checkout
          Session was created with <code>after_expiration.recovery.enabled</code>, its recovery URL as the reminders&apos;
          checkout link (after that link expires the integration&apos;s fallback link is used, else the step is skipped).
          A session completed through a recovery link (<code>recovered_from</code>) stops that contact&apos;s reminders and
          is named on its revenue row. A shopper who declined promotions at checkout (<code>consent.promotions</code>{' '}
          <code>opt_out</code>) gets no reminder.
        </Typography>
      </Section>
      <Section title="Its signing secret">
        <Typography>
          Open the destination in Stripe and reveal its <strong>Signing secret</strong> (<code>whsec_…</code>). On the
          integration&apos;s card choose <strong>Set secret</strong>, paste it and choose Stripe as the sender: every
          delivery is then checked against <code>Stripe-Signature</code> (HMAC-SHA256 of the timestamp and the body),
          and one more than 5 minutes old is refused. While you roll the secret, paste the old and the new separated by
          a comma: either verifies.
        </Typography>
        <Typography color="textSecondary">
          Line items: in the same dialog, a Stripe <strong>restricted key</strong> (<code>rk_…</code>) with read access
          to Checkout Sessions lets the tracker fetch each expired session&apos;s items once; without one the total alone
          is kept.
        </Typography>
      </Section>
      <Divider />
      <TestDelivery source="stripe" target={target} />
    </Stack>
  );
}

export function WooCommerceTab({ target }: SenderGuideProps) {
  return (
    <Stack spacing={3}>
      <Section title="Connect WooCommerce">
        <Steps>
          <UrlStep target={target} />
          <li>
            In WordPress open <strong>WooCommerce → Settings → Advanced → Webhooks</strong> and add a webhook with
            status <strong>Active</strong>, that URL as the <strong>Delivery URL</strong> and API version{' '}
            <strong>WP REST API Integration v3</strong>, once for each topic:
          </li>
        </Steps>
        <Events names={WOOCOMMERCE_TOPICS} />
        <Typography color="textSecondary">
          An order in an unpaid status ({WOOCOMMERCE_UNPAID_STATUSES.join(', ')}) with a billing email or phone becomes a
          contact with its line items, total and the order&apos;s payment URL as the checkout link; the same order later
          in a paid status ({WOOCOMMERCE_PAID_STATUSES.join(', ')}) is the purchase that stops the reminders. On saving,
          WooCommerce first sends a ping, which is answered 200 and creates nothing.
        </Typography>
      </Section>
      <Section title="Its signing secret">
        <Typography>
          Type a <strong>Secret</strong> into the webhook&apos;s form in WooCommerce (or generate one on the
          integration&apos;s card with <strong>Set secret</strong> and paste it there), and save the same secret on the
          card, choosing WooCommerce as the sender: every delivery is then checked against{' '}
          <code>X-WC-Webhook-Signature</code> (base64 HMAC-SHA256 of the body). Use the same secret for both topics.
        </Typography>
      </Section>
      <Divider />
      <TestDelivery source="woocommerce" target={target} />
    </Stack>
  );
}

export function SignedGenericTab({ target }: SenderGuideProps) {
  return (
    <Stack spacing={3}>
      <Section title="Signing your own deliveries">
        <Typography>
          A relay of your own (Zapier, a script) posting the formats of the Testing tab can sign them too: generate a
          secret on the integration&apos;s card, then send
        </Typography>
        {target && <CodeBlock label={`Webhook URL of ${target.name}`} code={target.webhook_url} wrap />}
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
      <TestDelivery source="generic" target={target} />
    </Stack>
  );
}

/**
 * A sender the tracker reads but this page has no written steps for yet: where its URL goes and its secret, in the
 * terms every sender shares, and its test delivery.
 */
function OtherSenderGuide({ source, target }: { source: WebhookSource } & SenderGuideProps) {
  const label = WEBHOOK_SOURCE_LABELS[source];
  return (
    <Stack spacing={3}>
      <Section title={`Connect ${label}`}>
        <Steps>
          <UrlStep target={target} />
          <li>In {label}, add a webhook endpoint with that URL for its checkout (cart) and order (paid) events.</li>
          <li>
            Paste the signing secret {label} shows for the endpoint with <strong>Set secret</strong> on the
            integration&apos;s card, choosing {label} as the sender: every delivery is then checked against its
            signature.
          </li>
        </Steps>
        <Typography color="textSecondary">
          Events the tracker does not use are answered 200 and recorded as ignored, so {label} never retries them.
        </Typography>
      </Section>
      <Divider />
      <TestDelivery source={source} target={target} />
    </Stack>
  );
}

/** The written steps of each sender; a sender added to the list later gets the shared steps until it has its own. */
const GUIDES: Partial<Record<WebhookSource, ComponentType<SenderGuideProps>>> = {
  clickfunnels2: ClickFunnels2Tab,
  clickfunnels_classic: ClickFunnelsClassicTab,
  shopify: ShopifyTab,
  stripe: StripeTab,
  woocommerce: WooCommerceTab,
  generic: SignedGenericTab,
};

export function SenderGuide({ source, target }: { source: WebhookSource } & SenderGuideProps) {
  const Guide = GUIDES[source];
  return Guide ? <Guide target={target} /> : <OtherSenderGuide source={source} target={target} />;
}

/**
 * One tab per sender of the contracts' list (the adapters of packages/sources), the real senders first and the
 * spec's own formats, signed, last.
 */
export const SENDER_TABS: { source: WebhookSource; label: string }[] = [
  ...WEBHOOK_SOURCES.filter((s) => s !== 'generic').map((source) => ({ source, label: WEBHOOK_SOURCE_LABELS[source] })),
  { source: 'generic', label: 'Signed deliveries' },
];
