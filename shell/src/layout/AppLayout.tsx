import { useState } from 'react';
import { Outlet } from 'react-router';
import { AppBar, Box, Drawer, IconButton, Toolbar, Typography, useMediaQuery, useTheme } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { RequireAuth } from '../guard/RequireAuth';
import { Sidebar } from './Sidebar';

export const SIDEBAR_WIDTH = 272;

/**
 * The signed-in frame: a fixed sidebar on wide screens, a slide-over behind a menu button on
 * narrow ones. The guard sits inside, so the sidebar (with its signed-out text) frames the spinner.
 */
export default function AppLayout() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [open, setOpen] = useState(false);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{ width: SIDEBAR_WIDTH, flexShrink: 0 }}
          slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH, border: 0 } } }}
        >
          <Sidebar />
        </Drawer>
      ) : (
        <>
          <AppBar position="fixed" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
            <Toolbar>
              <IconButton edge="start" aria-label="Open navigation menu" onClick={() => setOpen(true)} sx={{ mr: 1 }}>
                <MenuIcon />
              </IconButton>
              <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
                Abandoned Cart Tracker
              </Typography>
            </Toolbar>
          </AppBar>
          <Drawer
            variant="temporary"
            open={open}
            onClose={() => setOpen(false)}
            slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH, border: 0 } } }}
          >
            <Sidebar onNavigate={() => setOpen(false)} />
          </Drawer>
        </>
      )}
      <Box
        component="main"
        sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3, md: 5 }, py: { xs: 3, md: 4 }, mt: wide ? 0 : 7 }}
      >
        <RequireAuth>
          <Outlet />
        </RequireAuth>
      </Box>
    </Box>
  );
}
