import { createLogger, initMetrics, loadSettings } from '@act/service-kit';
import { startGateway } from './app';
import { GATEWAY_TEST_SWITCHES, gatewaySettings, loadConfig } from './config';

loadSettings('gateway', gatewaySettings, { switches: GATEWAY_TEST_SWITCHES });

const logger = createLogger('gateway');
initMetrics('gateway');
const config = loadConfig();
if (!process.env.IDENTITY_SECRET)
  logger.warn('IDENTITY_SECRET is not set: using the development default; set it outside development');

startGateway(config, logger).then(
  (gw) => {
    logger.info({ port: gw.port, upstreams: config.upstreams }, `gateway listening on ${gw.url}`);
    if (process.send) process.send({ type: 'listening', port: gw.port });
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => {
        void gw.close().finally(() => process.exit(0));
        setTimeout(() => process.exit(0), 5_000).unref();
      });
    }
  },
  (err) => {
    logger.error({ err }, 'gateway failed to start');
    process.exit(1);
  },
);
