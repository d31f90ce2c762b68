import type { ReactNode } from 'react';
import {
  Box,
  Card,
  CardContent,
  IconButton,
  InputAdornment,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import { useToast } from '@act/ui-kit';

/** A titled settings card. */
export function Section({
  title,
  description,
  icon,
  children,
  action,
}: {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent sx={{ p: 3 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', mb: 2.5 }}>
          {icon && (
            <Box
              sx={{
                width: 36,
                height: 36,
                borderRadius: 2,
                display: 'grid',
                placeItems: 'center',
                bgcolor: 'primary.light',
                color: 'primary.main',
                flexShrink: 0,
              }}
              aria-hidden
            >
              {icon}
            </Box>
          )}
          <Box sx={{ flex: 1 }}>
            <Typography variant="h6" component="h2" sx={{ fontWeight: 700, lineHeight: 1.3 }}>
              {title}
            </Typography>
            {description && (
              <Typography variant="body2" color="textSecondary">
                {description}
              </Typography>
            )}
          </Box>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

/** A read-only URL with a copy button. */
export function CopyField({ label, value, helperText }: { label: string; value: string; helperText?: string }) {
  const { toast } = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: 'URL Copied', description: value });
    } catch {
      toast({
        title: 'Error',
        description: 'Could not copy: select the URL and copy it by hand.',
        variant: 'destructive',
      });
    }
  };
  return (
    <TextField
      label={label}
      value={value}
      helperText={helperText}
      size="small"
      // A textarea, so a long URL wraps at a phone's width instead of being cut off.
      multiline
      slotProps={{
        htmlInput: {
          readOnly: true,
          style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13, wordBreak: 'break-all' },
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title="Copy">
                <IconButton aria-label={`Copy ${label}`} onClick={copy} edge="end" size="small">
                  <CopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
