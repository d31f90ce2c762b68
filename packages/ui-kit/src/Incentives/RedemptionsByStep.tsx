import useSWR from 'swr';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { formatMoney as formatMinor } from '@act/contracts/src/cart';
import type { StepRedemptions } from '@act/contracts/src/incentives-api';
import { formatCount } from '../format';

/** A template as the step names read it. */
interface Named {
  id: number;
  name: string;
}

export interface RedemptionsByStepProps {
  /** The email side's templates list (its steps' names). */
  emailTemplatesPath?: string;
  /** The SMS side's templates list. */
  smsTemplatesPath?: string;
}

const CHANNELS = [
  { prefix: 'email', label: 'Email', redemptions: '/api/email/incentive-redemptions' },
  { prefix: 'sms', label: 'SMS', redemptions: '/api/sms/incentive-redemptions' },
] as const;

const money = (per: { currency: string; minor: number }[]) => (per.length ? per.map((d) => formatMinor(d.minor, d.currency)).join(' · ') : '—');

/**
 * The codes each campaign step (email and SMS) gave: how many were issued, how many an order used, the discount those
 * orders got and their amount, per currency. Read from each side's redemption figures; a side that does not answer
 * says so and the other side's rows still show.
 */
export function RedemptionsByStep({ emailTemplatesPath = '/api/resend/templates', smsTemplatesPath = '/api/sms-templates' }: RedemptionsByStepProps) {
  const email = useSWR<StepRedemptions[]>(CHANNELS[0].redemptions);
  const sms = useSWR<StepRedemptions[]>(CHANNELS[1].redemptions);
  const emailNames = useSWR<Named[]>(emailTemplatesPath);
  const smsNames = useSWR<Named[]>(smsTemplatesPath);
  const sides = [
    { ...CHANNELS[0], q: email, names: emailNames.data },
    { ...CHANNELS[1], q: sms, names: smsNames.data },
  ];
  const rows = sides.flatMap((side) =>
    (side.q.data ?? []).map((r) => {
      const id = Number(r.step_key.split(':')[1]);
      const name = side.names?.find((t) => t.id === id)?.name;
      return { ...r, channel: side.label, step: name ?? `Template ${id}` };
    }),
  );
  const loading = sides.some((s) => s.q.isLoading);
  // At a phone's width each step is a small block of labelled figures: five columns do not fit.
  const narrow = useMediaQuery(useTheme().breakpoints.down('sm'));

  return (
    <Card data-testid="redemptions-by-step">
      <CardContent>
        <Stack spacing={1.5}>
          <Box>
            <Typography variant="h6" component="h2">
              Codes redeemed per step
            </Typography>
            <Typography variant="body2" color="textSecondary">
              Each step’s codes: issued, used in an order, the discount those orders got and what they came to.
            </Typography>
          </Box>
          {sides
            .filter((s) => s.q.error)
            .map((s) => (
              <Alert key={s.prefix} severity="warning">
                The {s.label} side’s codes could not be loaded.
              </Alert>
            ))}
          {loading ? (
            <Skeleton variant="rounded" height={72} />
          ) : rows.length === 0 ? (
            <Typography variant="body2" color="textSecondary">
              No step has given a code yet.
            </Typography>
          ) : narrow ? (
            <Stack component="ul" aria-label="Codes redeemed per step" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {rows.map((r) => (
                <Box component="li" key={`${r.channel}-${r.step_key}`} data-step={r.step_key} sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {r.step} <Typography component="span" variant="caption" color="textSecondary">{r.channel}</Typography>
                  </Typography>
                  <Typography variant="body2" data-figures="">
                    {formatCount(r.given)} issued · {formatCount(r.redeemed)} redeemed · discount {money(r.discount)} · revenue {money(r.revenue ?? [])}
                  </Typography>
                </Box>
              ))}
            </Stack>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Codes redeemed per step">
                <TableHead>
                  <TableRow>
                    <TableCell>Step</TableCell>
                    <TableCell align="right">Issued</TableCell>
                    <TableCell align="right">Redeemed</TableCell>
                    <TableCell align="right">Discount given</TableCell>
                    <TableCell align="right">Orders’ revenue</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((r) => (
                    <TableRow key={`${r.channel}-${r.step_key}`} data-step={r.step_key}>
                      <TableCell sx={{ minWidth: 140 }}>
                        {r.step}
                        <Typography variant="caption" color="textSecondary" component="div">
                          {r.channel}
                        </Typography>
                      </TableCell>
                      <TableCell align="right">{formatCount(r.given)}</TableCell>
                      <TableCell align="right">{formatCount(r.redeemed)}</TableCell>
                      <TableCell align="right">{money(r.discount)}</TableCell>
                      <TableCell align="right">{money(r.revenue ?? [])}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
