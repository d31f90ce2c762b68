import { useEffect, useState } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import { isAllowedImageUrl } from './urls';
import { useImageFiles } from './imageFiles';

/** Shown in the preview when the URL does not load (spec §2: a fallback image on load error). */
export const FALLBACK_IMAGE =
  'data:image/svg+xml;charset=utf-8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="160" viewBox="0 0 320 160">' +
      '<rect width="320" height="160" rx="8" fill="#f1f5f9" stroke="#cbd5e1"/>' +
      '<path d="M136 104l16-20 12 14 8-10 16 16z" fill="#94a3b8"/><circle cx="176" cy="66" r="7" fill="#94a3b8"/>' +
      '<text x="160" y="134" font-family="sans-serif" font-size="13" fill="#64748b" text-anchor="middle">Image could not be loaded</text>' +
      '</svg>',
  );

export interface InsertImageDialogProps {
  open: boolean;
  onClose: () => void;
  /** Receives an allowed URL (http, https or a data: image) and the image's alt text. */
  onInsert: (src: string, alt: string) => void;
}

export const ALT_TEXT_REQUIRED = 'Alt text is required';
export const ALT_TEXT_HINT =
  'What the image shows, for readers whose email app hides images and for screen readers, e.g. "Blue running shoes".';

/**
 * 'Insert Image': a URL (or a file, embedded as a data URL), its alt text (required: many email apps block images
 * until asked, and then the alt text is all the shopper sees), a live preview, then Insert.
 */
export function InsertImageDialog({ open, onClose, onInsert }: InsertImageDialogProps) {
  const [url, setUrl] = useState('');
  const [alt, setAlt] = useState('');
  const [altTouched, setAltTouched] = useState(false);
  const [failed, setFailed] = useState(false);
  const { pickImages, fileInput } = useImageFiles((images) => {
    if (images[0]) setUrl(images[0].src);
  });

  useEffect(() => {
    if (open) {
      setUrl('');
      setAlt('');
      setAltTouched(false);
    }
  }, [open]);
  useEffect(() => setFailed(false), [url]);

  const trimmed = url.trim();
  const allowed = isAllowedImageUrl(trimmed);
  const showError = trimmed !== '' && !allowed;
  const altText = alt.trim();
  const altError = altTouched && altText === '';

  function insert() {
    if (!allowed) return;
    if (altText === '') {
      setAltTouched(true);
      return;
    }
    onInsert(trimmed, altText);
    onClose();
  }

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="insert-image-title">
      <DialogTitle id="insert-image-title">Insert Image</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
            <TextField
              label="Image URL"
              placeholder="https://example.com/image.png"
              value={trimmed.startsWith('data:') ? '(embedded image from file)' : url}
              onChange={(e) => setUrl(e.target.value)}
              onFocus={() => {
                if (trimmed.startsWith('data:')) setUrl('');
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  insert();
                }
              }}
              autoFocus
              fullWidth
              error={showError}
              helperText={
                showError
                  ? 'Use an http or https address (or choose a file).'
                  : 'The image is added at the end of the email content.'
              }
              slotProps={{ htmlInput: { 'aria-label': 'Image URL' } }}
            />
            <Button
              variant="outlined"
              startIcon={<UploadIcon />}
              onClick={pickImages}
              sx={{ flexShrink: 0, height: 56 }}
            >
              Choose file
            </Button>
          </Stack>
          {fileInput}
          <TextField
            label="Alt text"
            required
            value={alt}
            onChange={(e) => setAlt(e.target.value)}
            onBlur={() => setAltTouched(true)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                insert();
              }
            }}
            fullWidth
            error={altError}
            helperText={altError ? ALT_TEXT_REQUIRED : ALT_TEXT_HINT}
            slotProps={{ htmlInput: { maxLength: 300 } }}
          />
          <Box
            sx={{
              minHeight: 160,
              border: 1,
              borderColor: 'divider',
              borderRadius: 2,
              bgcolor: 'grey.50',
              display: 'grid',
              placeItems: 'center',
              p: 2,
            }}
          >
            {allowed ? (
              <Box
                component="img"
                src={failed ? FALLBACK_IMAGE : trimmed}
                alt={altText || 'Preview'}
                data-testid="insert-image-preview"
                data-fallback={failed ? 'true' : undefined}
                onError={() => setFailed(true)}
                referrerPolicy="no-referrer"
                sx={{ maxWidth: '100%', maxHeight: 260, borderRadius: 1 }}
              />
            ) : (
              <Typography variant="body2" color="textSecondary">
                The preview appears here.
              </Typography>
            )}
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button color="inherit" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="contained" onClick={insert} disabled={!allowed || altText === ''}>
          Insert
        </Button>
      </DialogActions>
    </Dialog>
  );
}
