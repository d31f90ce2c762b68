import { Box, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts';
import { formatShortDate } from '@act/ui-kit';
import type { SmsStatsResponse } from '@act/contracts/src/sms-api';

/** Sends and deliveries per day of the range, from the response's daily series. */
export function StatsChart({ daily }: { daily: SmsStatsResponse['daily'] }) {
  if (daily.length === 0) {
    return (
      <Box sx={{ height: 280, display: 'grid', placeItems: 'center' }}>
        <Typography color="textSecondary">No data for this range.</Typography>
      </Box>
    );
  }
  const allZero = daily.every((d) => d.sent === 0 && d.delivered === 0);
  return (
    <Box data-testid="stats-chart" sx={{ width: '100%' }}>
      <BarChart
        height={300}
        xAxis={[{ scaleType: 'band', data: daily.map((d) => formatShortDate(d.date)) }]}
        // Counts are whole numbers; an all-zero range still gets a readable 0-5 axis.
        yAxis={[
          {
            tickMinStep: 1,
            min: 0,
            max: allZero ? 5 : undefined,
            width: 40,
            valueFormatter: (v: number | null) => (v === null ? '' : String(Math.round(v))),
          },
        ]}
        series={[
          { data: daily.map((d) => d.sent), label: 'Sent', color: '#2563eb' },
          { data: daily.map((d) => d.delivered), label: 'Delivered', color: '#16a34a' },
        ]}
        grid={{ horizontal: true }}
        margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
        borderRadius={4}
      />
    </Box>
  );
}
