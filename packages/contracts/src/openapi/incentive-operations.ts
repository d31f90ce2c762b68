import type { Answer, Operation, ServiceName } from './operation-types';

const ok = (shape: string, description = 'OK'): Answer => ({ shape, description });

/** A channel's incentive API (the same routes on both sides under their prefix). */
export function incentiveOperations(service: ServiceName, prefix: string, channel: 'Email' | 'SMS'): Operation[] {
  const tag = `${channel} incentives`;
  return [
    { service, method: 'get', path: `${prefix}/incentive-pools`, summary: 'Uploaded code pools, with the codes left in each and whether fewer than 100 are.', tag, access: 'user', responses: { 200: ok('PoolSummaryList') } },
    {
      service,
      method: 'post',
      path: `${prefix}/incentive-pools`,
      summary: "Upload a pool of unique codes as CSV text (the first column of each row; a 'code' header is left out; blanks and repeats dropped).",
      tag,
      access: 'user',
      body: { schema: 'PoolUploadRequest' },
      responses: { 201: ok('PoolSummary', 'Created'), 400: 'No codes, or a line whose code a shop would refuse (named).' },
    },
    { service, method: 'get', path: `${prefix}/incentive-pools/{id}`, summary: "One pool's count.", tag, access: 'user', responses: { 200: ok('PoolSummary'), 404: 'No such pool.' } },
    { service, method: 'get', path: `${prefix}/templates/{id}/incentive`, summary: "The template step's incentive (none when never set).", tag, access: 'user', responses: { 200: ok('Incentive') } },
    {
      service,
      method: 'put',
      path: `${prefix}/templates/{id}/incentive`,
      summary: "Set the template step's incentive: none, a fixed code, a unique code from a pool, or a single-use code created in Shopify / WooCommerce (percentage or amount, ending after N days).",
      tag,
      access: 'user',
      body: { schema: 'Incentive' },
      responses: { 200: ok('Incentive'), 400: 'An incentive that breaks the rules (named).', 404: 'No such pool.' },
    },
    { service, method: 'get', path: `${prefix}/integrations/{id}/shop`, summary: "The shop the integration creates codes in: its platform and address, whether the credentials are set (never the credentials).", tag, access: 'user', responses: { 200: ok('ShopCredentialsStatus') } },
    {
      service,
      method: 'put',
      path: `${prefix}/integrations/{id}/shop`,
      summary: "Set the shop's admin credentials (Shopify admin token; WooCommerce REST key and secret), sealed and write-only.",
      tag,
      access: 'admin',
      body: { schema: 'ShopCredentialsRequest' },
      responses: { 200: ok('ShopCredentialsStatus'), 400: 'A platform, address or credential missing or malformed.' },
    },
    { service, method: 'delete', path: `${prefix}/integrations/{id}/shop`, summary: "Forget the shop's credentials.", tag, access: 'admin', responses: { 200: ok('ShopCredentialsStatus') } },
    { service, method: 'get', path: `${prefix}/incentive-redemptions`, summary: 'Per step: codes given, codes used in a purchase and the discount they gave (per currency, minor units).', tag, access: 'user', responses: { 200: ok('StepRedemptionsList') } },
  ];
}
