import { createHostConfig } from '@act/mf-config';

// No remote is compiled in: the shell reads /remotes.json at start (served by the gateway from
// deploy-time settings). `devRemotes` only answers that file for `npm start -w shell`.
export default createHostConfig({
  name: 'shell',
  dir: __dirname,
  port: Number(process.env.SHELL_DEV_PORT ?? 3000),
  apiTarget: process.env.API_TARGET ?? 'http://127.0.0.1:8080',
  devRemotes: {
    mfe_email: process.env.MFE_EMAIL_MANIFEST ?? 'http://127.0.0.1:3001/mf-manifest.json',
    mfe_sms: process.env.MFE_SMS_MANIFEST ?? 'http://127.0.0.1:3002/mf-manifest.json',
  },
});
