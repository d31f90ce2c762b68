import { useMemo, useState } from 'react';
import useSWR from 'swr';
import { Box, Button, Card, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { AUDIT_PAGE_SIZES, AUDIT_SERVICES, type AuditPage, type AuditRecord } from '@act/contracts/src/audit';
import { DataTable, DateTime, ErrorCard, Loading, PageHeader, Pagination, serverMessage, type DataColumn } from '@act/ui-kit';

/** The contact pages of the audit targets that are contacts. */
const CONTACT_PAGES: Record<string, string> = { contact: '/contacts', 'sms-contact': '/sms-contacts' };

export const AUDIT_KEY = '/api/audit-log';

interface Filters {
  user: string;
  service: string;
  action: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { user: '', service: '', action: '', from: '', to: '' };

function queryOf(filters: Filters, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v !== '') params.set(k, String(v));
  const q = params.toString();
  return q ? `?${q}` : '';
}

/** /audit-log (admin only): who did what, newest first, filtered and paged on the server. */
export default function AuditLogPage() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(AUDIT_PAGE_SIZES[0]);
  const key = `${AUDIT_KEY}${queryOf(filters, { page, pageSize })}`;
  const { data, error, isLoading } = useSWR<AuditPage>(key, { keepPreviousData: true });
  const exportHref = useMemo(() => `${AUDIT_KEY}/export.csv${queryOf(filters)}`, [filters]);
  const set = (name: keyof Filters) => (e: { target: { value: string } }) => {
    setFilters((f) => ({ ...f, [name]: e.target.value }));
    setPage(1);
  };

  return (
    <Box>
      <PageHeader
        title="Audit Log"
        subtitle="Every change staff made, on every service: who, when, from where and what."
        actions={
          <Button variant="outlined" startIcon={<DownloadIcon />} href={exportHref} download>
            Export CSV
          </Button>
        }
      />
      <Card sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextField label="User" size="small" value={filters.user} onChange={set('user')} />
          <TextField
            select
            label="Service"
            size="small"
            value={filters.service}
            onChange={set('service')}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="">All services</MenuItem>
            {AUDIT_SERVICES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Action"
            size="small"
            value={filters.action}
            onChange={set('action')}
            placeholder="e.g. user.create"
          />
          <TextField
            label="From"
            type="date"
            size="small"
            value={filters.from}
            onChange={set('from')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="To"
            type="date"
            size="small"
            value={filters.to}
            onChange={set('to')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
      </Card>
      {error ? (
        <ErrorCard
          title="Failed to load the audit log"
          message={serverMessage(error, 'Failed to load the audit log')}
        />
      ) : isLoading && !data ? (
        <Loading />
      ) : (
        <DataTable
          ariaLabel="Audit records"
          minWidth={960}
          columns={AUDIT_COLUMNS}
          rows={data?.items}
          rowKey={(r) => r.id}
          empty="No audit records found."
          footer={
            <Pagination
              page={page}
              pageSize={pageSize}
              total={data?.total ?? 0}
              onPageChange={setPage}
              onPageSizeChange={(s) => {
                setPageSize(s);
                setPage(1);
              }}
              pageSizeOptions={AUDIT_PAGE_SIZES}
            />
          }
        />
      )}
    </Box>
  );
}

const AUDIT_COLUMNS: DataColumn<AuditRecord>[] = [
  { key: 'at', label: 'When', render: (r) => <DateTime value={r.at} />, cellSx: { whiteSpace: 'nowrap' } },
  { key: 'user', label: 'User', render: (r) => r.actor?.username ?? 'unknown' },
  { key: 'service', label: 'Service', render: (r) => r.service, cellSx: { whiteSpace: 'nowrap' } },
  {
    key: 'action',
    label: 'Action',
    render: (r) => (
      <>
        {/* One line in the table; on a phone's card (under 600 px) a long action wraps rather than widen the card. */}
        <Typography variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: { xs: 'normal', sm: 'nowrap' }, overflowWrap: 'anywhere' }}>
          {r.action}
        </Typography>
        {r.status >= 400 && (
          <Typography variant="caption" color="error">
            refused ({r.status})
          </Typography>
        )}
      </>
    ),
  },
  {
    key: 'target',
    label: 'Target',
    render: (r) => {
      const text = r.target_kind ? `${r.target_kind}${r.target_id ? ` #${r.target_id}` : ''}` : '';
      // A contact named by its number opens its contact page (a funnel's own contact id names no page).
      const page = r.target_id && /^\d+$/.test(r.target_id) ? CONTACT_PAGES[r.target_kind ?? ''] : undefined;
      return page ? (
        <Link component={RouterLink} to={`${page}/${r.target_id}`}>
          {text}
        </Link>
      ) : (
        text
      );
    },
  },
  { key: 'ip', label: 'Address', render: (r) => r.ip ?? '' },
  { key: 'change', label: 'Change', render: (r) => <ChangeText change={r.change} />, cellSx: { maxWidth: 360 } },
];

function ChangeText({ change }: { change: AuditRecord['change'] }) {
  const fields = Object.keys({ ...(change.before ?? {}), ...(change.after ?? {}) });
  if (fields.length === 0) return null;
  const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, wordBreak: 'break-word' }}>
      {fields.map((f) => (
        <Typography component="li" variant="body2" key={f}>
          {f}: {change.before ? `${show(change.before[f])} → ` : ''}
          {change.after ? show(change.after[f]) : '(removed)'}
        </Typography>
      ))}
    </Box>
  );
}
