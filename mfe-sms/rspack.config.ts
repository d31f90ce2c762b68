import { createRemoteConfig } from '@act/mf-config';

// Port and API target are dev-server settings only; where the built remote is served is decided
// at deploy time (the gateway's /remotes.json), never here.
export default createRemoteConfig({
  name: 'mfe_sms',
  dir: __dirname,
  port: Number(process.env.MFE_SMS_DEV_PORT ?? 3002),
  apiTarget: process.env.API_TARGET ?? 'http://127.0.0.1:8080',
  title: 'SMS (standalone) · Abandoned Cart Tracker',
  exposes: { './routes': './src/routes.tsx' },
});
