/**
 * The email remote's one exposed module (`mfe_email/routes`): nested, relative <Routes> for every
 * path DESIGN.md gives the email side. The shell mounts it under its catch-all route, so these
 * paths are matched from the site root; each page is its own lazy chunk.
 */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { Loading } from '@act/ui-kit';

export interface PageEntry {
  /** Relative to the site root ('' is the dashboard). */
  path: string;
  title: string;
  Component: ComponentType;
}

export const EMAIL_PAGES: PageEntry[] = [
  { path: '', title: 'Dashboard', Component: lazy(() => import('./dashboard/DashboardPage')) },
  { path: 'contacts', title: 'Contacts', Component: lazy(() => import('./contacts/ContactsPage')) },
  { path: 'contacts/:id', title: 'Contact', Component: lazy(() => import('./contact-page/ContactPage')) },
  { path: 'email-logs', title: 'Email Logs', Component: lazy(() => import('./email-logs/EmailLogsPage')) },
  { path: 'webhooks', title: 'Webhook Events', Component: lazy(() => import('./webhooks/WebhookEventsPage')) },
  {
    path: 'webhook-integrations',
    title: 'Webhook Integrations',
    Component: lazy(() => import('./webhook-integrations/WebhookIntegrationsPage')),
  },
  { path: 'documentation', title: 'Documentation', Component: lazy(() => import('./documentation/DocumentationPage')) },
  { path: 'settings', title: 'Settings', Component: lazy(() => import('./settings/SettingsPage')) },
  { path: 'resend-config', title: 'Resend Config', Component: lazy(() => import('./resend-config/ResendConfigPage')) },
  {
    path: 'resend-templates',
    title: 'Legacy Templates',
    Component: lazy(() => import('./resend-templates/ResendTemplatesPage')),
  },
  {
    path: 'email-campaigns',
    title: 'Email Campaigns',
    Component: lazy(() => import('./email-campaigns/EmailCampaignsPage')),
  },
  {
    path: 'email-templates/:campaignId',
    title: 'Email Templates',
    Component: lazy(() => import('./email-templates/EmailTemplatesPage')),
  },
];

export interface EmailRoutesProps {
  /** What to show for a path this remote does not know (the shell passes its 404 card). */
  notFound?: ReactNode;
}

export default function EmailRoutes({ notFound = null }: EmailRoutesProps) {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        {EMAIL_PAGES.map(({ path, Component }) =>
          path === '' ? (
            <Route key="index" index element={<Component />} />
          ) : (
            <Route key={path} path={path} element={<Component />} />
          ),
        )}
        <Route path="*" element={notFound} />
      </Routes>
    </Suspense>
  );
}
