import type { ComponentType } from 'react';
import type { SvgIconProps } from '@mui/material';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import ContactsIcon from '@mui/icons-material/PeopleAltOutlined';
import EmailLogsIcon from '@mui/icons-material/MarkEmailReadOutlined';
import WebhookIcon from '@mui/icons-material/Webhook';
import IntegrationIcon from '@mui/icons-material/CableOutlined';
import DocsIcon from '@mui/icons-material/MenuBookOutlined';
import ResendIcon from '@mui/icons-material/ForwardToInboxOutlined';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import SmsWebhookIcon from '@mui/icons-material/PhonelinkRingOutlined';
import SmsCampaignIcon from '@mui/icons-material/TextsmsOutlined';
import SmsContactsIcon from '@mui/icons-material/ContactPhoneOutlined';
import StatsIcon from '@mui/icons-material/InsightsOutlined';
import SmsLogsIcon from '@mui/icons-material/ReceiptLongOutlined';
import SmsEventsIcon from '@mui/icons-material/EventNoteOutlined';
import TwilioIcon from '@mui/icons-material/SettingsPhoneOutlined';
import TemplatesIcon from '@mui/icons-material/DescriptionOutlined';
import ProfileIcon from '@mui/icons-material/AccountCircleOutlined';
import UsersIcon from '@mui/icons-material/ManageAccountsOutlined';
import UnsubscribeIcon from '@mui/icons-material/UnsubscribeOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import AuditIcon from '@mui/icons-material/HistoryOutlined';
import PrivacyIcon from '@mui/icons-material/PrivacyTipOutlined';

export interface NavEntry {
  label: string;
  path: string;
  icon: ComponentType<SvgIconProps>;
  adminOnly?: boolean;
}

/** The sidebar of spec §2 "Shared shell", in its exact order; Settings always last. */
export const NAV_ENTRIES: NavEntry[] = [
  { label: 'Dashboard', path: '/', icon: DashboardIcon },
  { label: 'Contacts', path: '/contacts', icon: ContactsIcon },
  { label: 'Email Logs', path: '/email-logs', icon: EmailLogsIcon },
  { label: 'Webhook Events', path: '/webhooks', icon: WebhookIcon },
  { label: 'Webhook Integrations', path: '/webhook-integrations', icon: IntegrationIcon },
  { label: 'Documentation', path: '/documentation', icon: DocsIcon },
  { label: 'Resend Config', path: '/resend-config', icon: ResendIcon },
  { label: 'Email Campaigns', path: '/email-campaigns', icon: CampaignIcon },
  { label: 'SMS Webhooks', path: '/sms-webhooks', icon: SmsWebhookIcon },
  { label: 'SMS Campaigns', path: '/sms-campaigns', icon: SmsCampaignIcon },
  { label: 'SMS Contacts', path: '/sms-contacts', icon: SmsContactsIcon },
  { label: 'SMS Statistics', path: '/sms-stats', icon: StatsIcon },
  { label: 'SMS Logs', path: '/sms-logs', icon: SmsLogsIcon },
  { label: 'SMS Webhook Events', path: '/sms-webhook-events', icon: SmsEventsIcon },
  { label: 'Twilio Settings', path: '/twilio-settings', icon: TwilioIcon },
  { label: 'Legacy Templates', path: '/resend-templates', icon: TemplatesIcon },
  { label: 'Profile', path: '/profile', icon: ProfileIcon },
  { label: 'User Management', path: '/users', icon: UsersIcon, adminOnly: true },
  // The admin's records of people and changes, after User Management.
  { label: 'Audit Log', path: '/audit-log', icon: AuditIcon, adminOnly: true },
  { label: 'Privacy Requests', path: '/privacy-requests', icon: PrivacyIcon, adminOnly: true },
  { label: 'Unsubscribe Management', path: '/unsubscribe-management', icon: UnsubscribeIcon, adminOnly: true },
  { label: 'Settings', path: '/settings', icon: SettingsIcon },
];

export function navEntriesFor(role: string | null | undefined): NavEntry[] {
  return NAV_ENTRIES.filter((entry) => !entry.adminOnly || role === 'admin');
}
