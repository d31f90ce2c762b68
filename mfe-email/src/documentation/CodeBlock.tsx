import { useState } from 'react';
import { Box, IconButton, Stack, Tooltip, Typography } from '@mui/material';

export interface CodeBlockProps {
  code: string;
  label: string;
  /**
   * Breaks a long single line (a URL) wherever it must, so all of it shows on a phone; code keeps its lines and
   * scrolls sideways instead.
   */
  wrap?: boolean;
}

/**
 * Monospace block with a copy button (for the endpoint URL and the example bodies). The button sits in a bar above
 * the text rather than over it, so no character of a URL ends under the icon on a narrow screen.
 */
export function CodeBlock({ code, label, wrap = false }: CodeBlockProps) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard access can be refused (insecure origin); the text stays selectable.
    }
  };
  return (
    <Box sx={{ bgcolor: '#0f172a', color: '#e2e8f0', borderRadius: 2, overflow: 'hidden' }}>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', pl: 2, pr: 0.5, py: 0.25, bgcolor: '#1e293b' }}
      >
        <Typography variant="caption" sx={{ color: '#94a3b8' }} aria-hidden>
          {label}
        </Typography>
        <Tooltip title={copied ? 'Copied' : 'Copy'}>
          <IconButton aria-label={`Copy ${label}`} onClick={() => void copy()} size="small" sx={{ color: '#cbd5e1' }}>
            <Box component="svg" viewBox="0 0 24 24" sx={{ width: 18, height: 18, fill: 'currentColor' }} aria-hidden>
              <path d="M16 1H4c-1.1 0-2 .9-2 2v14h2V3h12V1zm3 4H8c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h11c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2zm0 16H8V7h11v14z" />
            </Box>
          </IconButton>
        </Tooltip>
      </Stack>
      <Box
        component="pre"
        aria-label={label}
        // Scrolls sideways on a narrow screen: reachable by keyboard (axe: scrollable-region-focusable).
        tabIndex={0}
        sx={{
          m: 0,
          p: 2,
          fontFamily: '"JetBrains Mono", "Fira Code", Consolas, monospace',
          fontSize: 13,
          lineHeight: 1.6,
          overflowX: 'auto',
          ...(wrap ? { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } : { whiteSpace: 'pre' }),
        }}
      >
        <code>{code}</code>
      </Box>
    </Box>
  );
}
