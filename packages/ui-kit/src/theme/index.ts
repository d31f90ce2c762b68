import { createTheme } from '@mui/material';

/** One theme for shell and remotes (emotion is a shared singleton, so remotes see this theme). */
export const theme = createTheme({
  palette: {
    mode: 'light',
    // WCAG AA (4.5:1) for text on every surface (as axe-core checks it): each main colour takes white text at 4.5:1 or
    // more, grey text reads on the page background, and MUI picks dark text for any colour below the threshold.
    contrastThreshold: 4.5,
    primary: { main: '#2563eb', light: '#dbeafe', dark: '#1e40af', contrastText: '#ffffff' },
    secondary: { main: '#7c3aed' },
    error: { main: '#dc2626', light: '#fee2e2', contrastText: '#ffffff' },
    success: { main: '#15803d', light: '#dcfce7', contrastText: '#ffffff' },
    warning: { main: '#b45309', light: '#fef3c7', contrastText: '#ffffff' },
    info: { main: '#0369a1', light: '#e0f2fe', contrastText: '#ffffff' },
    background: { default: '#f5f7fb', paper: '#ffffff' },
    text: { primary: '#0f172a', secondary: '#475569' },
    divider: '#e2e8f0',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h4: { fontSize: '1.75rem', letterSpacing: '-0.01em' },
    h5: { letterSpacing: '-0.01em' },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCard: { defaultProps: { elevation: 0 }, styleOverrides: { root: { border: '1px solid #e2e8f0' } } },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 12 } } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    // A chosen value longer than the field wraps: kept on one line, its width became the page's least width and a
    // phone scrolled sideways ('None (send from the phone number)' on Twilio settings at 390 px).
    MuiSelect: { styleOverrides: { select: { whiteSpace: 'normal' } } },
    // A table wider than the screen scrolls in its container: keyboard users must reach it (axe:
    // scrollable-region-focusable).
    MuiTableContainer: { defaultProps: { tabIndex: 0 } },
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600, color: '#475569', backgroundColor: '#f8fafc' } } },
    MuiChip: { styleOverrides: { root: { fontWeight: 600 } } },
  },
});
