import type { ReactNode } from 'react';
import { AppBar, Box, Button, Card, CardContent, Container, Toolbar, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../Auth';
import { Loading } from '../Loading';
import { SignInForm } from '../SignInForm';

export interface StandaloneLink {
  to: string;
  label: string;
}

/**
 * The bare frame of a remote's standalone dev page (`npm start -w mfe-email`): sign-in through
 * the proxied API when needed, and plain links to the remote's pages. The real layout is the shell's.
 */
export function StandaloneFrame({
  title,
  links,
  children,
}: {
  title: string;
  links: StandaloneLink[];
  children: ReactNode;
}) {
  const { user, isLoading, logout } = useAuth();
  return (
    <Box sx={{ minHeight: '100vh' }}>
      <AppBar position="static" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" sx={{ mr: 2 }}>
            {title}
          </Typography>
          {links.map((link) => (
            <Button key={link.to} size="small" component={RouterLink} to={link.to}>
              {link.label}
            </Button>
          ))}
          <Box sx={{ flex: 1 }} />
          {user && <Button onClick={() => void logout()}>Logout {user.username}</Button>}
        </Toolbar>
      </AppBar>
      <Container maxWidth="lg" sx={{ py: 4 }}>
        {isLoading ? (
          <Loading />
        ) : user ? (
          children
        ) : (
          <Card sx={{ maxWidth: 420, mx: 'auto' }}>
            <CardContent>
              <Typography variant="h6" sx={{ mb: 2 }}>
                Sign in
              </Typography>
              <SignInForm />
            </CardContent>
          </Card>
        )}
      </Container>
    </Box>
  );
}
