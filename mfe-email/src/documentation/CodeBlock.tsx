import { useState } from 'react';
import { Box, IconButton, Tooltip } from '@mui/material';

/** Monospace block with a copy button (for the endpoint URL and the example bodies). */
export function CodeBlock({ code, label }: { code: string; label: string }) {
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
    <Box sx={{ position: 'relative' }}>
      <Box
        component="pre"
        aria-label={label}
        // Scrolls sideways on a narrow screen: reachable by keyboard (axe: scrollable-region-focusable).
        tabIndex={0}
        sx={{
          m: 0,
          p: 2,
          pr: 6,
          bgcolor: '#0f172a',
          color: '#e2e8f0',
          borderRadius: 2,
          fontFamily: '"JetBrains Mono", "Fira Code", Consolas, monospace',
          fontSize: 13,
          lineHeight: 1.6,
          overflowX: 'auto',
          whiteSpace: 'pre',
        }}
      >
        <code>{code}</code>
      </Box>
      <Tooltip title={copied ? 'Copied' : 'Copy'}>
        <IconButton
          aria-label={`Copy ${label}`}
          onClick={() => void copy()}
          size="small"
          sx={{ position: 'absolute', top: 8, right: 8, color: '#cbd5e1' }}
        >
          <Box component="svg" viewBox="0 0 24 24" sx={{ width: 18, height: 18, fill: 'currentColor' }} aria-hidden>
            <path d="M16 1H4c-1.1 0-2 .9-2 2v14h2V3h12V1zm3 4H8c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h11c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2zm0 16H8V7h11v14z" />
          </Box>
        </IconButton>
      </Tooltip>
    </Box>
  );
}
