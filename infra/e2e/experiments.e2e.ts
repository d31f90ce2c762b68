// Campaign experiments in Chromium through the gateway: an SMS campaign with two variants of its step and a 20%
// holdout, its touches, holdout marks and purchases published as the services publish them (send.sms.sent,
// funnel.purchase.created on the stack's NATS), so the ledgers hold enough for intervals and an automatic winner; an
// email campaign with too few contacts so far. SMS Campaigns shows the results panel (variants, holdout, incremental
// revenue, the winner), the email campaign's page says how many more recipients are needed, the Dashboard has the
// incremental revenue line; the experiment form's share rule. Screenshots at 1440x900 and 390x844
// (.run/screenshots/experiments-*.png). Clicks through our redirect link: "Track clicks" switched on in the panel, a
// text's tracked link opened in Chromium through the gateway (`/r/s…`) lands on the recovery link, and the panel's
// Clicked column counts each variant's clicked messages once.
import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { connect, type NatsConnection } from 'nats';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, readStack, screenshotPath, signIn } from './browser';

/** How long the services reuse a campaign's results (service-kit's experiments service). */
const RESULTS_FRESH_MS = 10_000;

const stack = readStack();
const tag = `exp-${Date.now().toString(36)}`;
const HOUR = 3_600_000;

// Answers of any shape: the test reads the fields it expects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([m, u, b]) => {
      const r = await fetch(u as string, { method: m as string, headers: { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : null };
    },
    [method, url, body] as const,
  );
}

/**
 * 600 contacts of the SMS campaign: 120 held out (12 bought, $50 each), 240 got variant A (12 bought, $60), 240 got
 * variant B (48 bought, $60). Deterministic, so the figures are known: B is the clear winner, the reminders added
 * revenue over the holdout.
 */
async function seedSms(nc: NatsConnection, campaignId: number, templateId: number): Promise<void> {
  const js = nc.jetstream();
  const publish = (subject: string, payload: Record<string, unknown>) =>
    js.publish(`${stack.natsPrefix ?? ''}${subject}`, JSON.stringify({ eventId: randomUUID(), occurredAt: new Date().toISOString(), ...payload }));
  const sentAt = Date.now() - 48 * HOUR;
  const purchases: Record<string, unknown>[] = [];
  for (let i = 0; i < 600; i++) {
    const group = i < 120 ? 'holdout' : i < 360 ? 'A' : 'B';
    const contactId = `${tag}-${i}`;
    const phone = `+1415${String(8_000_000 + i)}`;
    await publish('send.sms.sent', {
      source: 'svc-sms',
      channel: 'sms',
      funnelId: tag,
      contactId,
      email: null,
      phone,
      integrationId: null,
      campaignId,
      templateId,
      step: 1,
      messageId: group === 'holdout' ? null : `SM${tag}${i}`,
      sendId: group === 'holdout' ? `holdout:${campaignId}:${i}` : `twilio:SM${tag}${i}`,
      sentAt: new Date(sentAt + i * 1000).toISOString(),
      ...(group === 'holdout' ? { holdout: true } : { variant: group }),
    });
    const k = group === 'holdout' ? i : group === 'A' ? i - 120 : i - 360;
    const buys = group === 'holdout' ? k % 10 === 0 : group === 'A' ? k % 20 === 0 : k % 5 === 0;
    if (buys) purchases.push({ source: 'svc-sms', funnelId: tag, contactId, email: null, phone, amount: group === 'holdout' ? 50 : 60, currency: 'USD', purchasedAt: new Date(sentAt + i * 1000 + 6 * HOUR).toISOString() });
  }
  for (const p of purchases) await publish('funnel.purchase.created', p);
}

describe('campaign experiments in the browser', () => {
  let browser: Browser;
  let nc: NatsConnection;
  beforeAll(async () => {
    browser = await launchBrowser();
    nc = await connect({ servers: stack.natsUrl ?? 'nats://127.0.0.1:4222' });
  });
  afterAll(async () => {
    await nc?.close();
    await browser?.close();
  });

  it('SMS Campaigns, an email campaign page and the Dashboard show variants, holdout, lift and winner at 1440 and 390', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);

    const sms = (await call(page, 'POST', '/api/sms-campaigns', { name: `Experiment ${tag}`, integration_id: null, active: true })).body;
    const smsTemplate = (await call(page, 'POST', '/api/sms-templates', { campaign_id: sms.id, name: 'First text', message: 'Your cart is waiting {first_name}', sequence_order: 1, delay_minutes: 0, active: true })).body;
    const variant = (id: string, content: string) => ({ id, share: 50, subject: null, content, delay: null, incentive: null });
    // The automatic winner is switched on once the ledger holds every contact (below): a results read while the
    // events are still arriving would decide on the part that has arrived.
    const settings = (autoWinner: boolean) => ({
      holdout_percent: 20,
      auto_winner: autoWinner,
      winner_min_recipients: 100,
      steps: [{ template_id: smsTemplate.id, variants: [variant('A', 'Still thinking it over?'), variant('B', 'Your cart expires tonight')] }],
    });
    expect((await call(page, 'PUT', `/api/sms-campaigns/${sms.id}/experiment`, settings(false))).status).toBe(200);

    const email = (await call(page, 'POST', '/api/email/campaigns', { name: `Experiment ${tag}` })).body;
    const emailTemplate = (await call(page, 'POST', '/api/resend/templates', { campaign_id: email.id, name: 'First email', subject: 'You left something', from_name: 'Shop', html_content: '<p>Come back</p>', template_order: 1, delay_hours: 1 })).body;
    expect(
      (await call(page, 'PUT', `/api/email/campaigns/${email.id}/experiment`, { holdout_percent: 10, steps: [{ template_id: emailTemplate.id, variants: [variant('A', '<p>One hour</p>'), { ...variant('B', '<p>One day</p>'), delay: 24 }] }] })).status,
    ).toBe(200);

    await seedSms(nc, sms.id, smsTemplate.id);

    // The ledger fills from NATS within moments: the results count every contact once it has them all.
    for (let i = 0; ; i++) {
      const r = (await call(page, 'GET', `/api/sms-campaigns/${sms.id}/results`)).body;
      if ((r.reminded.recipients === 480 && r.holdout.recipients === 120 && r.reminded.purchasers === 60 && r.holdout.purchasers === 12) || i >= 60) {
        expect([r.reminded.recipients, r.holdout.recipients, r.reminded.purchasers, r.holdout.purchasers]).toEqual([480, 120, 60, 12]);
        expect(r.steps[0].variants.map((v: { id: string; recipients: number; purchasers: number; revenue: number }) => [v.id, v.recipients, v.purchasers, v.revenue])).toEqual([
          ['A', 240, 12, 720],
          ['B', 240, 48, 2880],
        ]);
        break;
      }
      await page.waitForTimeout(1_000);
    }
    expect((await call(page, 'PUT', `/api/sms-campaigns/${sms.id}/experiment`, settings(true))).status).toBe(200);

    await page.goto(`${stack.url}/sms-campaigns`);
    const card = page.getByRole('article', { name: `Experiment ${tag}` });
    const panel = card.getByTestId('experiment-panel');
    await panel.getByTestId('experiment-incremental').waitFor();
    // Reminded: $3,600 over 480 ($7.50 a contact); holdout: $600 over 120 ($5.00): (7.50 − 5.00) × 480 = $1,200.00.
    expect(await panel.getByTestId('experiment-incremental').textContent()).toMatch(/^Incremental revenue: \$1,200\.00 \(95%: -?\$[\d,.]+ to \$[\d,.]+\) over 480 reminded contacts$/);
    expect(await panel.getByTestId('experiment-winner').textContent()).toMatch(/^Winner: variant B, decided .+ \(probability best 100\.0%, on A: 240 recipients, 12 purchased; B: 240 recipients, 48 purchased\); it takes all new traffic$/);
    const rows = await panel.getByRole('table', { name: 'Variants of First text (#1)' }).getByRole('row').allTextContents();
    expect(rows.slice(1).map((r) => r.slice(0, 9))).toEqual(['Variant A', 'Variant B']);
    // The winner is kept: a reload reads the same decision.
    const kept = (await call(page, 'GET', `/api/sms-campaigns/${sms.id}/experiment`)).body;
    expect(kept.winners.map((w: { variant: string; template_id: number }) => [w.template_id, w.variant])).toEqual([[smsTemplate.id, 'B']]);
    await card.screenshot({ path: screenshotPath('experiments-sms-1440.png') });

    // The form's rules: shares must add up to 100 (the server's message, shown as is).
    await panel.getByRole('button', { name: 'Edit experiment' }).click();
    const sheet = page.getByRole('dialog', { name: 'Experiment' });
    await sheet.getByRole('spinbutton', { name: 'Share %' }).first().fill('70');
    await sheet.getByRole('button', { name: 'Save' }).click();
    expect(await sheet.getByTestId('experiment-error').textContent()).toContain('Variant shares must add up to 100');
    await page.screenshot({ path: screenshotPath('experiments-form-1440.png') });
    await sheet.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${stack.url}/email-templates/${email.id}`);
    const emailPanel = page.getByTestId('experiment-panel');
    await emailPanel.getByTestId('experiment-incremental').waitFor();
    expect(await emailPanel.getByTestId('experiment-incremental').textContent()).toBe('Incremental revenue: Below the minimum sample (reminded: no purchase yet; holdout: no purchase yet)');
    expect(await emailPanel.getByTestId('experiment-settings').textContent()).toContain('Holdout 10%');
    await page.screenshot({ path: screenshotPath('experiments-email-1440.png'), fullPage: true });

    await page.goto(`${stack.url}/`);
    await page.getByTestId('incremental-revenue-sms').waitFor();
    expect(await page.getByTestId('incremental-revenue-sms').textContent()).toMatch(/^Incremental revenue, SMS \(reminded vs\. holdout\): \$[\d,.]+ \(95%: .+; \d+ campaigns? with a holdout\)$/);
    expect(await page.getByTestId('incremental-revenue-email').textContent()).toMatch(/below the minimum sample/);
    await page.screenshot({ path: screenshotPath('experiments-dashboard-1440.png'), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${stack.url}/sms-campaigns`);
    await card.getByTestId('experiment-incremental').waitFor();
    // A phone shows the panel's tables as cards, never wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await card.screenshot({ path: screenshotPath('experiments-sms-390.png') });
    await page.goto(`${stack.url}/email-templates/${email.id}`);
    await page.getByTestId('experiment-incremental').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('experiments-email-390.png'), fullPage: true });
    await context.close();
  });

  it("counts a text's clicks through our link per variant in the SMS results panel", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin', stack.adminPassword);
    const ctag = `${tag}-clicks`;
    const sms = (await call(page, 'POST', '/api/sms-campaigns', { name: `Clicks ${ctag}`, integration_id: null, active: true })).body;
    const tpl = (await call(page, 'POST', '/api/sms-templates', { campaign_id: sms.id, name: 'Clicked text', message: 'Back to your cart: {checkout_url}', sequence_order: 1, delay_minutes: 0, active: true })).body;
    const variant = (id: string) => ({ id, share: 50, subject: null, content: null, delay: null, incentive: null });
    expect((await call(page, 'PUT', `/api/sms-campaigns/${sms.id}/experiment`, { holdout_percent: 0, steps: [{ template_id: tpl.id, variants: [variant('A'), variant('B')] }] })).status).toBe(200);

    // 20 texts per variant in the ledger (as svc-sms publishes them), each with the tracked link its send kept.
    const js = nc.jetstream();
    const links: { variant: string; token: string; target: string }[] = [];
    const rows = [];
    for (let i = 0; i < 40; i++) {
      const v = i < 20 ? 'A' : 'B';
      const contactId = `${ctag}-${i}`;
      await js.publish(
        `${stack.natsPrefix ?? ''}send.sms.sent`,
        JSON.stringify({
          eventId: randomUUID(),
          occurredAt: new Date().toISOString(),
          source: 'svc-sms',
          channel: 'sms',
          funnelId: ctag,
          contactId,
          email: null,
          phone: `+1415${String(7_000_000 + i)}`,
          integrationId: null,
          campaignId: sms.id,
          templateId: tpl.id,
          step: 1,
          messageId: `SM${ctag}${i}`,
          sendId: `twilio:SM${ctag}${i}`,
          sentAt: new Date(Date.now() - HOUR + i * 1000).toISOString(),
          variant: v,
        }),
      );
      const token = `s${randomBytes(9).toString('base64url')}`;
      // Where the link leads: a page of the stack itself (the browser here reaches no shop).
      const target = `${stack.url}/?cart=${i}&discount=SAVE${i}`;
      links.push({ variant: v, token, target });
      rows.push({ token, contact_ref: 8_000_000 + i, contact_id: contactId, campaign_id: sms.id, template_id: tpl.id, step: 1, variant: v, target, created_at: new Date(), clicked_at: null, last_clicked_at: null, clicks: 0 });
    }
    const client = await MongoClient.connect(stack.mongoUri!);
    try {
      await client.db(stack.databases!['svc-sms']).collection('tracked_links').insertMany(rows);
    } finally {
      await client.close();
    }
    for (let i = 0; ; i++) {
      const r = (await call(page, 'GET', `/api/sms-campaigns/${sms.id}/results`)).body;
      if (r.reminded.recipients === 40 || i >= 60) {
        expect(r.reminded.recipients).toBe(40);
        break;
      }
      await page.waitForTimeout(1_000);
    }

    await page.goto(`${stack.url}/sms-campaigns`);
    const card = page.getByRole('article', { name: `Clicks ${ctag}` });
    const panel = card.getByTestId('experiment-panel');
    const table = panel.getByRole('table', { name: 'Variants of Clicked text (#1)' });
    const clickedCells = async () => (await table.getByRole('row').all()).slice(1).map((row) => row.getByRole('cell').nth(3));
    await table.waitFor();
    // Off (the default): Twilio reports no clicks.
    expect(await Promise.all((await clickedCells()).map((c) => c.textContent()))).toEqual(['—', '—']);
    const trackClicks = panel.getByRole('switch', { name: 'Track clicks' });
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/sms/click-tracking') && r.request().method() === 'PUT'), trackClicks.check()]);
    // On: the panel reads its results again and counts our link's clicks at once (none yet), though the results read
    // while it was off are still within their fresh period.
    for (let i = 0; i < 50 && (await table.getByRole('row').nth(1).getByRole('cell').nth(3).textContent()) === '—'; i++) await page.waitForTimeout(100);
    expect(await Promise.all((await clickedCells()).map((c) => c.textContent()))).toEqual(['0', '0']);

    // The shopper's phone opens the link: the gateway sends /r/s… to svc-sms, which counts it and redirects.
    const shopper = await context.newPage();
    const clicked = [...links.filter((l) => l.variant === 'A').slice(0, 5), ...links.filter((l) => l.variant === 'B').slice(0, 12)];
    for (const l of clicked) {
      await shopper.goto(`${stack.url}/r/${l.token}`);
      expect(shopper.url()).toBe(l.target);
    }
    // Opened again: counted on the message, not as another clicked message.
    await shopper.goto(`${stack.url}/r/${clicked[0]!.token}`);
    const unknown = await shopper.goto(`${stack.url}/r/sAAAAAAAAAAAA`);
    expect(unknown!.status()).toBe(404);
    expect(await shopper.getByRole('heading', { level: 1 }).textContent()).toBe('This link is not valid');
    await shopper.screenshot({ path: screenshotPath('experiments-unknown-link.png') });
    await shopper.close();

    // A campaign's results are reused for RESULTS_FRESH_MS (docs/revenue.md): the clicks show within that.
    const shown = async () => {
      await page.reload();
      await table.waitFor();
      return Promise.all((await clickedCells()).map((c) => c.textContent()));
    };
    const clickedAt = Date.now();
    while ((await shown()).join() !== '5,12' && Date.now() - clickedAt < RESULTS_FRESH_MS + 5_000) await page.waitForTimeout(1_000);
    await panel.getByRole('switch', { name: 'Track clicks' }).waitFor();
    expect(await panel.getByRole('switch', { name: 'Track clicks' }).isChecked()).toBe(true);
    expect(await Promise.all((await clickedCells()).map((c) => c.textContent()))).toEqual(['5', '12']);
    await card.screenshot({ path: screenshotPath('experiments-clicks-1440.png') });
    // Off again, as the operator would: the switch is the deployment's, and the stack's other files preview and send
    // texts with the recovery link itself (the default).
    const [off] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/sms/click-tracking') && r.request().method() === 'PUT'),
      panel.getByRole('switch', { name: 'Track clicks' }).uncheck(),
    ]);
    expect(await off.json()).toEqual({ track_clicks: false });
    await context.close();
  });
});
