/**
 * The recovery link with the shopper's code applied, where the shop takes a code in a link: Shopify's
 * `https://<shop>/discount/<CODE>?redirect=<path>` applies the code, then opens the checkout. Other shops keep the
 * link as it is (the message shows the code).
 */
export function applyCodeToRecoveryUrl(url: string, code: string | null | undefined, platform: string | null | undefined): string {
  if (!code || platform !== 'shopify') return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!/^https?:$/.test(parsed.protocol)) return url;
  const redirect = `${parsed.pathname}${parsed.search}`;
  return `${parsed.origin}/discount/${encodeURIComponent(code)}?redirect=${encodeURIComponent(redirect)}`;
}
