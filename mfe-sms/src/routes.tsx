/**
 * The SMS remote's one exposed module (`mfe_sms/routes`): nested, relative <Routes> for every
 * path DESIGN.md gives the SMS side. The shell mounts it under its catch-all route, so these
 * paths are matched from the site root; each page is its own lazy chunk.
 */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { Typography } from '@mui/material';
import { Loading } from '@act/ui-kit';

/** Set at build time (MFE_BUILD_LABEL, see packages/mf-config); empty in ordinary builds, which show nothing. */
const BUILD_LABEL = process.env.MFE_BUILD_LABEL ?? '';

export interface PageEntry {
  path: string;
  title: string;
  Component: ComponentType;
}

export const SMS_PAGES: PageEntry[] = [
  { path: 'sms-webhooks', title: 'SMS Webhooks', Component: lazy(() => import('./sms-webhooks/SmsWebhooksPage')) },
  { path: 'sms-campaigns', title: 'SMS Campaigns', Component: lazy(() => import('./sms-campaigns/SmsCampaignsPage')) },
  { path: 'sms-contacts', title: 'SMS Contacts', Component: lazy(() => import('./sms-contacts/SmsContactsPage')) },
  { path: 'sms-contacts/:id', title: 'SMS Contact', Component: lazy(() => import('./contact-page/SmsContactPage')) },
  { path: 'sms-stats', title: 'SMS Statistics', Component: lazy(() => import('./sms-stats/SmsStatsPage')) },
  { path: 'sms-logs', title: 'SMS Logs', Component: lazy(() => import('./sms-logs/SmsLogsPage')) },
  {
    path: 'sms-webhook-events',
    title: 'SMS Webhook Events',
    Component: lazy(() => import('./sms-webhook-events/SmsWebhookEventsPage')),
  },
  {
    path: 'twilio-settings',
    title: 'Twilio Settings',
    Component: lazy(() => import('./twilio-settings/TwilioSettingsPage')),
  },
];

export interface SmsRoutesProps {
  /** What to show for a path this remote does not know (the shell passes its 404 card). */
  notFound?: ReactNode;
}

export default function SmsRoutes({ notFound = null }: SmsRoutesProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        {SMS_PAGES.map(({ path, Component }) => (
          <Route key={path} path={path} element={<Component />} />
        ))}
        <Route path="*" element={notFound} />
      </Routes>
      {BUILD_LABEL && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 3, textAlign: 'right' }}>
          SMS build {BUILD_LABEL}
        </Typography>
      )}
    </Suspense>
  );
}
