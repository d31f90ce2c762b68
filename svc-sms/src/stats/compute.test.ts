import { computeIntegrationStats, dailySeries, type StatsLog } from './compute';
import { statsRange } from './ranges';

const t = (iso: string) => new Date(iso);
const log = (phone: string, contact_id: string, status: string, at = '2026-01-16T15:00:00Z'): StatsLog => ({
  phone,
  contact_id,
  status,
  integration_id: 1,
  timestamp: t(at),
});

describe('SMS stats figures', () => {
  const logs = [
    log('+15550000001', 'a', 'delivered', '2026-01-16T15:00:00Z'),
    log('+15550000001', 'a', 'sent', '2026-01-16T15:10:00Z'),
    log('+15550000002', 'b', 'failed'),
    log('+15550000003', 'c', 'undelivered'),
    log('+15550000004', 'd', 'queued'),
    log('+15550000005', 'e', 'pending'),
    log('+15550000001', 'z', 'skipped_duplicate', '2026-01-16T16:00:00Z'),
    log('+18005550000', 'f', 'blocked_toll_free'),
    // a duplicate that got through (sent before deduplication existed): phone 2 first messaged for b
    log('+15550000002', 'y', 'delivered', '2026-01-16T17:00:00Z'),
  ];
  const s = computeIntegrationStats({ id: 1, name: 'Main' }, logs, 2);

  it('counts sends by status, failed with undelivered and queued with pending', () => {
    expect(s).toMatchObject({
      integration_id: 1,
      integration_name: 'Main',
      total_sms_sent: 7,
      sent_count: 1,
      delivered_count: 2,
      failed_count: 2,
      queued_count: 2,
      skipped_duplicate_count: 1,
      blocked_toll_free_count: 1,
      purchases_recorded: 2,
    });
  });
  it('counts phones and duplicates', () => {
    expect(s.unique_phones).toBe(5);
    expect(s.duplicates_sent).toBe(1);
    expect(s.duplicate_phones).toEqual(['+15550000001', '+15550000002']);
  });
  it('builds a daily series with empty days', () => {
    const range = statsRange('last_7_days', t('2026-01-17T12:00:00Z'), 'UTC');
    const daily = dailySeries(logs, range, 'UTC');
    expect(daily).toHaveLength(7);
    expect(daily.find((d) => d.date === '2026-01-16')).toEqual({ date: '2026-01-16', sent: 7, delivered: 2 });
    expect(daily.find((d) => d.date === '2026-01-17')).toEqual({ date: '2026-01-17', sent: 0, delivered: 0 });
  });
});
