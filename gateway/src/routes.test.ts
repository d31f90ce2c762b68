import { routeFor, isApiPath, trackedLinkApiPath } from './routes';

describe('the /api prefix table', () => {
  const cases: [string, string, 'session' | 'anonymous'][] = [
    ['/api/user', 'svc-auth', 'anonymous'],
    ['/api/login', 'svc-auth', 'anonymous'],
    ['/api/logout', 'svc-auth', 'anonymous'],
    ['/api/profile', 'svc-auth', 'session'],
    ['/api/profile/change-password', 'svc-auth', 'session'],
    ['/api/users', 'svc-auth', 'session'],
    ['/api/users/7/reset-password', 'svc-auth', 'session'],
    ['/api/sms/webhook', 'svc-sms', 'anonymous'],
    ['/api/sms/anything', 'svc-sms', 'session'],
    ['/api/sms-webhook-integrations/3', 'svc-sms', 'session'],
    ['/api/sms-campaigns', 'svc-sms', 'session'],
    ['/api/sms-templates/4/test', 'svc-sms', 'session'],
    ['/api/sms-contacts/mark-purchased', 'svc-sms', 'session'],
    ['/api/sms-logs', 'svc-sms', 'session'],
    ['/api/sms-webhook-events', 'svc-sms', 'session'],
    ['/api/sms-stats-simple', 'svc-sms', 'session'],
    ['/api/twilio/config', 'svc-sms', 'session'],
    ['/api/twilio/webhooks', 'svc-sms', 'anonymous'],
    ['/api/twilio/webhooks/status', 'svc-sms', 'anonymous'],
    ['/api/webhook', 'svc-email', 'anonymous'],
    ['/api/unsubscribe', 'svc-email', 'anonymous'],
    ['/api/r/eAbCdEfGh', 'svc-email', 'anonymous'],
    ['/api/sms/r/sAbCdEfGh', 'svc-sms', 'anonymous'],
    ['/api/sms/rates', 'svc-sms', 'session'],
    ['/api/rx', 'svc-email', 'session'],
    ['/api/resend/webhooks', 'svc-email', 'anonymous'],
    ['/api/resend/config', 'svc-email', 'session'],
    ['/api/webhook-events', 'svc-email', 'session'],
    ['/api/webhook-integrations/2/clear-contacts', 'svc-email', 'session'],
    ['/api/contacts', 'svc-email', 'session'],
    ['/api/email-logs', 'svc-email', 'session'],
    ['/api/settings/reminder-delay', 'svc-email', 'session'],
    ['/api/test/clear-data', 'svc-email', 'session'],
    ['/api/resend/templates/campaign/3', 'svc-email', 'session'],
    ['/api/email/campaigns/1', 'svc-email', 'session'],
    ['/api/direct-unsubscribes', 'svc-email', 'session'],
    ['/api/email-unsubscribes/quick-add', 'svc-email', 'session'],
    ['/api/unsubscribes', 'svc-email', 'session'],
    ['/api/smsx', 'svc-email', 'session'],
    ['/api/userss', 'svc-email', 'session'],
    ['/api/nothing-here', 'svc-email', 'session'],
    ['/api', 'svc-email', 'session'],
    ['/API/USERS', 'svc-auth', 'session'],
  ];
  it.each(cases)('%s → %s (%s)', (path, service, access) => {
    expect(routeFor(path)).toMatchObject({ service, access });
  });

  it("sends a message's tracked link to the service its token names", () => {
    expect(trackedLinkApiPath('/r/sAbC123-_x')).toBe('/api/sms/r/sAbC123-_x');
    expect(trackedLinkApiPath('/r/eAbC123-_x')).toBe('/api/r/eAbC123-_x');
    expect(trackedLinkApiPath('/r/')).toBeNull();
    expect(trackedLinkApiPath('/rx/eAbC')).toBeNull();
    expect(trackedLinkApiPath('/email/campaigns')).toBeNull();
    expect(routeFor(trackedLinkApiPath('/r/sAbC')!)).toMatchObject({ service: 'svc-sms', access: 'anonymous', public: true });
  });

  it('knows what is an API path', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/x')).toBe(true);
    expect(isApiPath('/apix')).toBe(false);
    expect(isApiPath('/')).toBe(false);
  });
});
