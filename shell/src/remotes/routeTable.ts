import { matchPath } from 'react-router';

/**
 * Which paths belong to which remote: the one place the shell knows this (DESIGN.md "The shape").
 * A path not listed here and not one of the shell's own pages is a 404.
 */
export const REMOTE_ROUTES = {
  mfe_email: {
    label: 'Email',
    paths: [
      '/',
      '/contacts',
      '/contacts/:id',
      '/email-logs',
      '/webhooks',
      '/webhook-integrations',
      '/documentation',
      '/settings',
      '/resend-config',
      '/resend-templates',
      '/email-campaigns',
      '/email-templates/:campaignId',
    ],
  },
  mfe_sms: {
    label: 'SMS',
    paths: [
      '/sms-webhooks',
      '/sms-campaigns',
      '/sms-contacts',
      '/sms-contacts/:id',
      '/sms-stats',
      '/sms-logs',
      '/sms-webhook-events',
      '/twilio-settings',
    ],
  },
} as const;

export type RemoteName = keyof typeof REMOTE_ROUTES;

export function remoteForPath(pathname: string): RemoteName | null {
  for (const [name, { paths }] of Object.entries(REMOTE_ROUTES) as [RemoteName, (typeof REMOTE_ROUTES)[RemoteName]][]) {
    if (paths.some((path) => matchPath({ path, end: true }, pathname))) return name;
  }
  return null;
}
