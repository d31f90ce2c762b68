import { remoteForPath } from './routeTable';

describe('which remote owns a path', () => {
  it.each([
    ['/', 'mfe_email'],
    ['/contacts', 'mfe_email'],
    ['/contacts/12', 'mfe_email'],
    ['/documentation', 'mfe_email'],
    ['/email-templates/12', 'mfe_email'],
    ['/sms-stats', 'mfe_sms'],
    ['/sms-contacts/3', 'mfe_sms'],
    ['/twilio-settings', 'mfe_sms'],
  ])('%s → %s', (path, remote) => expect(remoteForPath(path)).toBe(remote));

  it.each(['/nope', '/contacts/12/extra', '/email-templates', '/profile', '/users'])('%s belongs to no remote', (path) =>
    expect(remoteForPath(path)).toBeNull(),
  );
});
