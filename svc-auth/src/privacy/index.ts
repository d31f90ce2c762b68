export { privacyRouter } from './routes';
export { createPrivacyRequests, type PrivacyRequests } from './service';
export { startPrivacyConsumer } from './consumer';
