export { UnsubscribeService, UNSUBSCRIBE_MESSAGES } from './service';
export { unsubscribePublicRouter, unsubscribeAdminRouter, type UnsubscribeRouteOptions } from './routes';
export { unsubscribeModel, normaliseEmail, type UnsubscribeDoc } from './model';
export { signUnsubscribeToken, verifyUnsubscribeToken, unsubscribeSecret } from './token';
export { listUnsubscribeHeaders, oneClickUrl, type UnsubscribeLinkSettings } from './links';
