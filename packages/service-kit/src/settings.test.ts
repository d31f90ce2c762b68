// The shared validation: every bad or missing setting in one error, empty values as unset, test switches refused
// under NODE_ENV=production only.
import { secretsKeySetting, serviceSettings as shared, SettingsError, validateSettings, type TestSwitch } from './settings';

const serviceSettings = { ...shared, ...secretsKeySetting };

const problemsOf = (source: NodeJS.ProcessEnv, switches: readonly TestSwitch[] = []) => {
  try {
    validateSettings('svc-test', serviceSettings, { source, switches });
  } catch (err) {
    if (err instanceof SettingsError) return err;
    throw err;
  }
  return null;
};

describe('validateSettings', () => {
  it('gives typed values with the defaults', () => {
    const s = validateSettings('svc-test', serviceSettings, { source: { BODY_LIMIT: '2048', NATS_URL: 'nats://a:4222,nats://b:4222', DATA_RETENTION_DAYS: '' } });
    expect(s).toMatchObject({ BODY_LIMIT: 2048, NATS_URL: 'nats://a:4222,nats://b:4222', DATA_RETENTION_DAYS: 180, NODE_ENV: 'development', MONGODB_URI: 'mongodb://127.0.0.1:27017' });
  });

  it('names every bad or missing setting in one error', () => {
    const err = problemsOf({ NODE_ENV: 'production', BODY_LIMIT: 'lots', MONGODB_URI: 'postgres://db/x', NATS_STREAM_REPLICAS: '0', SECRETS_KEY: '  ' });
    expect(err?.problems).toEqual([
      'BODY_LIMIT: must be a whole number of at least 1, got "lots"',
      'IDENTITY_SECRET is required in production',
      'MONGODB_URI: must be a mongodb:// or mongodb+srv:// connection string',
      'NATS_STREAM_REPLICAS: must be a whole number of at least 1, got "0"',
      'SECRETS_KEY is required in production',
    ]);
    expect(err?.message).toMatch(/^svc-test: invalid configuration:\n {2}- BODY_LIMIT/);
  });

  it('accepts a replica set seed list and mongodb+srv', () => {
    for (const uri of ['mongodb://a:27017,b:27017,c:27017/?replicaSet=rs0', 'mongodb+srv://u:p@cluster0.example.net/?w=majority'])
      expect(validateSettings('svc-test', serviceSettings, { source: { MONGODB_URI: uri } }).MONGODB_URI).toBe(uri);
  });

  it('refuses test-only switches under NODE_ENV=production, and only there', () => {
    const production = { NODE_ENV: 'production', IDENTITY_SECRET: 's', SECRETS_KEY: 'k', TWILIO_BASE_URL: 'http://127.0.0.1:9', API_RECORD_FILE: '/tmp/x' };
    expect(problemsOf(production, ['TWILIO_BASE_URL', 'API_RECORD_FILE'])?.problems).toEqual([
      'API_RECORD_FILE is a test-only switch (gateway: appends every /api answer to this file (the e2e contract check)): not allowed with NODE_ENV=production',
      'TWILIO_BASE_URL is a test-only switch (svc-sms: every Twilio API host redirected to this origin (a local fake)): not allowed with NODE_ENV=production',
    ]);
    expect(problemsOf({ ...production, TWILIO_BASE_URL: '', API_RECORD_FILE: '' }, ['TWILIO_BASE_URL', 'API_RECORD_FILE'])).toBeNull();
    expect(problemsOf({ ...production, NODE_ENV: 'test' }, ['TWILIO_BASE_URL', 'API_RECORD_FILE'])).toBeNull();
  });
});
