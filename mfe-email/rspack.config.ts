import { createRemoteConfig } from '@act/mf-config';

// Port and API target are dev-server settings only; where the built remote is served is decided
// at deploy time (the gateway's /remotes.json), never here.
export default createRemoteConfig({
  name: 'mfe_email',
  dir: __dirname,
  port: Number(process.env.MFE_EMAIL_DEV_PORT ?? 3001),
  apiTarget: process.env.API_TARGET ?? 'http://127.0.0.1:8080',
  title: 'Email (standalone) · Abandoned Cart Tracker',
  exposes: { './routes': './src/routes.tsx' },
});
