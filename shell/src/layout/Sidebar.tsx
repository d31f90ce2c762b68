import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import {
  Avatar,
  Box,
  Button,
  Chip,
  Divider,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import CartIcon from '@mui/icons-material/ShoppingCartOutlined';
import { roleLabel, useAuth } from '@act/ui-kit';
import { navEntriesFor } from './navigation';

/** Sidebar content, the same in the fixed panel (wide) and the slide-over (narrow). */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { user, logout } = useAuth();
  const entries = user ? navEntriesFor(user.role) : [];
  const navRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // The active entry is always in view, also when the list scrolls on a short window (at 900 px the
  // last entries and the active one can sit below the fold).
  useEffect(() => {
    navRef.current?.querySelector<HTMLElement>('a.active')?.scrollIntoView?.({ block: 'nearest' });
  }, [pathname, entries.length]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', bgcolor: '#0f172a', color: '#e2e8f0' }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', px: 2.5, py: 2.5 }}>
        <Avatar variant="rounded" sx={{ bgcolor: 'primary.main', width: 36, height: 36 }}>
          <CartIcon fontSize="small" />
        </Avatar>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, lineHeight: 1.2, color: '#fff' }}>
          Abandoned Cart Tracker
        </Typography>
      </Stack>
      <Divider sx={{ borderColor: 'rgba(148,163,184,0.2)' }} />

      <Box
        ref={navRef}
        sx={{
          flex: 1,
          minHeight: 0,
          overflowY: 'auto',
          py: 1,
          // A scrollbar you can see on the dark panel, when the entries do not fit.
          scrollbarWidth: 'thin',
          scrollbarColor: '#475569 transparent',
        }}
      >
        {user ? (
          <List component="nav" aria-label="Main navigation" dense disablePadding sx={{ px: 1 }}>
            {entries.map(({ label, path, icon: Icon }) => (
              <ListItemButton
                key={path}
                component={NavLink}
                to={path}
                end={path === '/'}
                onClick={onNavigate}
                sx={{
                  borderRadius: 1.5,
                  mb: '1px',
                  // Compact enough for every entry of an admin to fit a 900 px high window.
                  py: 0.25,
                  minHeight: 32,
                  color: '#cbd5e1',
                  '& .MuiListItemIcon-root': { color: '#94a3b8', minWidth: 36 },
                  '&:hover': { bgcolor: 'rgba(148,163,184,0.12)' },
                  '&.active': { bgcolor: 'primary.main', color: '#fff', '& .MuiListItemIcon-root': { color: '#fff' } },
                }}
              >
                <ListItemIcon>
                  <Icon fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={label} slotProps={{ primary: { sx: { fontSize: 14, fontWeight: 500 } } }} />
              </ListItemButton>
            ))}
          </List>
        ) : (
          <Typography sx={{ px: 2.5, py: 2, color: '#94a3b8' }}>Please log in to access the dashboard</Typography>
        )}
      </Box>

      <Divider sx={{ borderColor: 'rgba(148,163,184,0.2)' }} />
      <Box component="footer" sx={{ px: 2.5, py: 2 }} aria-label="Signed-in user">
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
          <Avatar sx={{ width: 34, height: 34, bgcolor: '#334155', fontSize: 15 }}>
            {(user?.username ?? 'G').charAt(0).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography noWrap sx={{ fontWeight: 600, color: '#fff', fontSize: 14 }}>
              {user?.username ?? 'Guest'}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.25 }}>
              <Chip
                size="small"
                label={roleLabel(user?.role)}
                color={user?.role === 'admin' ? 'primary' : 'default'}
                sx={{
                  height: 20,
                  fontSize: 11,
                  ...(user?.role === 'admin' ? {} : { bgcolor: '#334155', color: '#e2e8f0' }),
                }}
              />
            </Stack>
          </Box>
        </Stack>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
            <Box aria-hidden sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'success.main' }} />
            <Typography sx={{ fontSize: 12, color: '#94a3b8' }}>Status: Online</Typography>
          </Stack>
          <Button
            size="small"
            onClick={() => void logout()}
            disabled={!user}
            startIcon={<LogoutIcon fontSize="small" />}
            sx={{ color: '#cbd5e1', '&.Mui-disabled': { color: '#475569' } }}
          >
            Logout
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}
