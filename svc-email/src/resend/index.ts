export { ResendService, UNSUBSCRIBED_TEST_WARNING } from './service';
export { resendRouter } from './routes';
