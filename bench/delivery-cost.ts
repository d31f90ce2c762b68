// bench/delivery.mjs's cost per email of what an email step adds to the send, measured in the bench's own process on
// the bench's machine: composing one email of the bench's template (its Cart block, variables and code) with
// svc-email's composer, and giving one shopper a unique code from a pool with the incentive giver the email step uses
// (its grant look-up, the pool's atomic claim and the grant it records), against the bench's MongoDB stand-in in a
// scratch database. The services do the same work inside the run; these figures are that work alone, without the
// pacing, the provider calls and the other steps.
import { performance } from 'node:perf_hooks';
import mongoose from 'mongoose';
import { SAMPLE_CART } from '../packages/contracts/src/message-variables';
import { createSecretBox } from '../packages/service-kit/src/secret-box';
import { IncentiveGiver, type IncentiveTarget } from '../packages/service-kit/src/incentives/giver';
import { incentiveModels, initIncentiveModels } from '../packages/service-kit/src/incentives/model';
import { IncentivePools } from '../packages/service-kit/src/incentives/pools';
import type { Logger } from '../packages/service-kit/src/logger';
import { composeEmail } from '../svc-email/src/live-sending/compose';

export interface CostOptions {
  mongoUri: string;
  dbName: string;
  /** The template's stored HTML and subject, as the bench saved them. */
  html: string;
  subject: string;
  /** Emails composed, and codes given (in bursts of `burst`, as a step gives a burst's codes together). */
  emails: number;
  codes: number;
  burst: number;
}

const round = (n: number) => +n.toFixed(3);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export async function measureDeliveryCost(o: CostOptions) {
  // Composing: a warm-up first (the MJML layout's first call loads its modules), then each email timed.
  const links = { publicUrl: 'https://carts.example.com', secret: 'bench-delivery-cost', mailto: null };
  const compose = (i: number) =>
    composeEmail(
      { subject: o.subject, from_name: 'Shop', html_content: o.html },
      {
        to: `cost${i}@example.com`,
        firstName: 'Pat',
        cart: SAMPLE_CART,
        discountCode: `BENCH-${String(i).padStart(6, '0')}`,
        recoveryUrl: `https://shop.example.com/c/${i}`,
        fromAddress: 'shop@example.com',
        links,
        idempotencyKey: `cost-${i}`,
      },
    );
  for (let i = 0; i < 20; i++) await compose(i);
  const renderMs: number[] = [];
  for (let i = 0; i < o.emails; i++) {
    const t = performance.now();
    await compose(i);
    renderMs.push(performance.now() - t);
  }
  renderMs.sort((a, b) => a - b);

  // The code: a pool of `codes` codes, each given to one (contact, step) by the giver, a burst at a time.
  const conn = await mongoose.createConnection(o.mongoUri, { dbName: o.dbName }).asPromise();
  try {
    await initIncentiveModels(conn);
    const models = incentiveModels(conn);
    const pools = new IncentivePools(models);
    const silent = { warn() {}, info() {}, error() {}, debug() {} } as unknown as Logger;
    const giver = new IncentiveGiver({ models, pools, box: createSecretBox('bench-delivery-cost'), logger: silent });
    const csv = Array.from({ length: o.codes }, (_, i) => `COST-${String(i).padStart(7, '0')}`).join('\n');
    const pool = await pools.create('Delivery cost', csv);
    const target = (ref: number): IncentiveTarget => ({ contact_ref: ref, step_key: 'email-template:1', integration_id: 1, incentive: { kind: 'pool', pool_id: pool.id } });
    const burstMs: number[] = [];
    let given = 0;
    const t0 = performance.now();
    for (let from = 0; from < o.codes; from += o.burst) {
      const t = performance.now();
      const results = await giver.give(Array.from({ length: Math.min(o.burst, o.codes - from) }, (_, i) => target(from + i + 1)));
      burstMs.push(performance.now() - t);
      given += results.filter((r) => r.code).length;
    }
    const totalMs = performance.now() - t0;
    // One shopper at a time (a burst of one): the round trips one email's code costs with nothing beside it.
    const single = await pools.create('Delivery cost, one at a time', Array.from({ length: 100 }, (_, i) => `ONE-${String(i).padStart(4, '0')}`).join('\n'));
    const oneMs: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await giver.give([{ ...target(o.codes + i + 1), incentive: { kind: 'pool', pool_id: single.id } }]);
      oneMs.push(performance.now() - t);
    }
    oneMs.sort((a, b) => a - b);
    const distinct = (await models.Grant.collection.distinct('code', { state: 'issued', code: { $regex: '^COST-' } })).length;
    return {
      render: {
        emails: o.emails,
        msPerEmail: round(renderMs.reduce((a, b) => a + b, 0) / renderMs.length),
        p50Ms: round(percentile(renderMs, 0.5)),
        p95Ms: round(percentile(renderMs, 0.95)),
      },
      code: {
        codes: o.codes,
        given,
        distinct,
        burst: o.burst,
        // Wall time of a burst's giving over its emails: what a burst of emails waits for its codes, per email.
        msPerEmail: round(totalMs / o.codes),
        msPerBurstP50: round(percentile([...burstMs].sort((a, b) => a - b), 0.5)),
        oneAtATimeP50Ms: round(percentile(oneMs, 0.5)),
      },
    };
  } finally {
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
  }
}

// Run on its own by bench/delivery.mjs (`node --import tsx bench/delivery-cost.ts '<options as JSON>'`), as the
// services run: the composer's modules (the Resend SDK's undici among them) load under tsx's own loader, not through
// tsImport inside the bench's process. Prints the figures as one JSON line.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  measureDeliveryCost(JSON.parse(process.argv[2]!) as CostOptions).then(
    (r) => console.log(JSON.stringify(r)),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
