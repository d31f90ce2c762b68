import { Navigate } from 'react-router';
import { Avatar, Box, Card, CardContent, Stack, Typography } from '@mui/material';
import MonitorIcon from '@mui/icons-material/MonitorHeartOutlined';
import TimerIcon from '@mui/icons-material/TimerOutlined';
import RecoveryIcon from '@mui/icons-material/MarkEmailUnreadOutlined';
import CartIcon from '@mui/icons-material/ShoppingCartOutlined';
import { Loading, SignInForm, useAuth } from '@act/ui-kit';

/** The three features the sign-in page advertises (spec §1). */
export const FEATURES = [
  {
    icon: MonitorIcon,
    title: 'Real-time Monitoring',
    text: 'Watch customer activity as it happens: new contacts, purchases and webhook events.',
  },
  {
    icon: TimerIcon,
    title: 'Configurable Timing',
    text: 'Choose how long to wait after a cart is abandoned before the reminder email goes out.',
  },
  {
    icon: RecoveryIcon,
    title: 'Customer Recovery',
    text: 'Win customers back with customised reminder emails that bring them to their cart.',
  },
] as const;

/** /auth: sign-in form beside the product's three features. Signed-in users go to /. */
export function AuthPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <Loading fullScreen label="Loading user" />;
  if (user) return <Navigate to="/" replace />;

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1.1fr 1fr' } }}>
      <Box
        sx={{
          background: 'linear-gradient(145deg, #0f172a 0%, #1e3a8a 60%, #2563eb 100%)',
          color: '#fff',
          px: { xs: 3, sm: 6, lg: 10 },
          py: { xs: 5, md: 8 },
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
        }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: { xs: 3, md: 6 } }}>
          <Avatar variant="rounded" sx={{ bgcolor: 'rgba(255,255,255,0.15)' }}>
            <CartIcon />
          </Avatar>
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
            Abandoned Cart Tracker
          </Typography>
        </Stack>
        <Typography
          variant="h3"
          component="h2"
          sx={{ fontWeight: 800, fontSize: { xs: 28, md: 40 }, mb: 2, maxWidth: 520 }}
        >
          Recover the sales your funnels almost made.
        </Typography>
        <Typography sx={{ color: 'rgba(255,255,255,0.75)', mb: { xs: 3, md: 5 }, maxWidth: 520 }}>
          Track contacts from your funnels, spot abandoned carts and remind customers by email and SMS.
        </Typography>
        <Stack component="ul" spacing={3} sx={{ listStyle: 'none', p: 0, m: 0, maxWidth: 520 }} aria-label="Features">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <Stack component="li" key={title} direction="row" spacing={2}>
              <Avatar sx={{ bgcolor: 'rgba(255,255,255,0.12)', color: '#93c5fd' }}>
                <Icon />
              </Avatar>
              <Box>
                <Typography sx={{ fontWeight: 700 }}>{title}</Typography>
                <Typography sx={{ color: 'rgba(255,255,255,0.7)', fontSize: 14 }}>{text}</Typography>
              </Box>
            </Stack>
          ))}
        </Stack>
      </Box>
      <Box sx={{ display: 'grid', placeItems: 'center', px: 2, py: { xs: 5, md: 8 }, bgcolor: 'background.default' }}>
        <Card sx={{ width: '100%', maxWidth: 420 }}>
          <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
              Sign in
            </Typography>
            <Typography color="textSecondary" sx={{ mb: 3 }}>
              Use your staff account to continue.
            </Typography>
            <SignInForm />
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
}
