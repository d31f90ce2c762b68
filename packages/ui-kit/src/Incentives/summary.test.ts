import { poolWarning, type PoolSummary } from '@act/contracts/src/incentives-api';
import { incentiveSummary } from './IncentivesPanel';

const pool = (remaining: number): PoolSummary => ({ id: 'p1', name: 'Spring', total: 500, remaining, low: remaining < 100, created_at: '2026-11-27T00:00:00.000Z' });

it('says what a step gives in one line', () => {
  expect(incentiveSummary({ kind: 'none' }, [])).toBe('No code');
  expect(incentiveSummary({ kind: 'fixed', code: 'SAVE10' }, [])).toBe('Code SAVE10 for everyone');
  expect(incentiveSummary({ kind: 'pool', pool_id: 'p1' }, [pool(300)])).toBe('Unique code from "Spring"');
  expect(incentiveSummary({ kind: 'pool', pool_id: 'gone' }, [pool(300)])).toBe('Unique code from a pool');
  expect(incentiveSummary({ kind: 'shopify', discount: 'percentage', value: 15, days: 7 }, [])).toBe('A unique code created in Shopify: 15% off, ends after 7 days');
  expect(incentiveSummary({ kind: 'woocommerce', discount: 'amount', value: 5, days: 3 }, [])).toBe('A unique coupon created in WooCommerce: 5 off, ends after 3 days');
});

it('warns under 100 codes left, and says an empty pool sends without a code', () => {
  expect(poolWarning(pool(100))).toBeNull();
  expect(poolWarning(pool(99))).toBe('Only 99 codes left: upload more before the pool runs out');
  expect(poolWarning(pool(0))).toBe('No codes left: the step is sent without a code');
});
