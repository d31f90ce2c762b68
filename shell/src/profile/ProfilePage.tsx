import { useState } from 'react';
import { Box, Card, CardContent, CardHeader, Chip, Divider, Grid, Stack, Tab, Tabs, Typography } from '@mui/material';
import { PageHeader, formatDateTime, roleLabel, useAuth, type CurrentUser } from '@act/ui-kit';
import { ProfileForm } from './ProfileForm';
import { ChangePasswordForm } from './ChangePasswordForm';

/** /profile: tabs Profile and Change Password, beside the Account Information card (spec §2). */
export default function ProfilePage() {
  const { user } = useAuth();
  const [tab, setTab] = useState(0);
  if (!user) return null;

  return (
    <>
      <PageHeader title="Profile" subtitle="Manage your account details and password." />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Card>
            <Box sx={{ borderBottom: 1, borderColor: 'divider', px: 2 }}>
              <Tabs value={tab} onChange={(_e, value: number) => setTab(value)} aria-label="Profile sections">
                <Tab label="Profile" id="profile-tab-0" aria-controls="profile-panel-0" />
                <Tab label="Change Password" id="profile-tab-1" aria-controls="profile-panel-1" />
              </Tabs>
            </Box>
            <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
              <div role="tabpanel" id="profile-panel-0" aria-labelledby="profile-tab-0" hidden={tab !== 0}>
                {tab === 0 && <ProfileForm user={user} />}
              </div>
              <div role="tabpanel" id="profile-panel-1" aria-labelledby="profile-tab-1" hidden={tab !== 1}>
                {tab === 1 && <ChangePasswordForm />}
              </div>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <AccountInformation user={user} />
        </Grid>
      </Grid>
    </>
  );
}

function AccountInformation({ user }: { user: CurrentUser }) {
  const rows: [string, React.ReactNode][] = [
    [
      'Role',
      <Chip
        key="role"
        size="small"
        label={roleLabel(user.role)}
        color={user.role === 'admin' ? 'primary' : 'default'}
      />,
    ],
    ['User ID', user.id],
    ['Created', formatDateTime(user.created_at)],
    ['Last Updated', formatDateTime(user.updated_at)],
  ];
  return (
    <Card component="section" aria-labelledby="account-info-title">
      <CardHeader
        title="Account Information"
        slotProps={{ title: { id: 'account-info-title', variant: 'h6', component: 'h2' } }}
      />
      <Divider />
      <CardContent>
        <Stack spacing={2} divider={<Divider flexItem />}>
          {rows.map(([label, value]) => (
            <Stack key={label} direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 2 }}>
              <Typography color="textSecondary">{label}</Typography>
              <Typography component="div" sx={{ fontWeight: 500, textAlign: 'right' }}>
                {value}
              </Typography>
            </Stack>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
