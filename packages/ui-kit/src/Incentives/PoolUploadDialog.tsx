import { useEffect, useState, type ChangeEvent } from 'react';
import { Button, Stack, TextField, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import type { PoolSummary, PoolUploadRequest } from '@act/contracts/src/incentives-api';
import { apiRequest, serverMessage } from '../request';
import { FormDialog } from '../FormDialog';

export interface PoolUploadDialogProps {
  open: boolean;
  /** `/api/email` or `/api/sms`. */
  prefix: string;
  onClose: () => void;
  onUploaded: (pool: PoolSummary) => void;
}

/** Uploads a CSV of unique codes as a pool: its name and the file (the first column of each row is a code). */
export function PoolUploadDialog({ open, prefix, onClose, onUploaded }: PoolUploadDialogProps) {
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setName('');
    setFile(null);
    setError(null);
  }, [open]);

  function pick(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0] ?? null;
    setFile(f);
    if (f && !name) setName(f.name.replace(/\.csv$/i, ''));
  }

  async function submit() {
    if (!file) {
      setError('Choose a CSV file');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body: PoolUploadRequest = { name, csv: await file.text() };
      onUploaded(await apiRequest<PoolSummary>('POST', `${prefix}/incentive-pools`, body));
    } catch (err) {
      setError(serverMessage(err, 'The codes could not be uploaded'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open={open}
      title="Upload codes"
      subtitle="A CSV file with one unique code per row (first column); each code is given to one shopper only."
      onCancel={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      submitLabel="Upload"
      submitIcon={<UploadIcon />}
      busy={busy}
      error={error}
      errorTestId="pool-upload-error"
    >
      <Stack spacing={2} sx={{ mt: 1 }}>
        <Button variant="outlined" component="label" startIcon={<UploadIcon />} sx={{ alignSelf: 'flex-start' }}>
          Choose CSV file
          <input hidden type="file" accept=".csv,text/csv,text/plain" onChange={pick} data-testid="pool-file" />
        </Button>
        <Typography variant="body2" color="textSecondary" data-testid="pool-file-name">
          {file ? file.name : 'No file chosen'}
        </Typography>
        <TextField label="Pool name" value={name} onChange={(e) => setName(e.target.value)} required slotProps={{ htmlInput: { maxLength: 100 } }} />
      </Stack>
    </FormDialog>
  );
}
