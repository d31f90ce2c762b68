export * from './types';
export { ResendProvider, resolveCredentials, type ResendSettings } from './resend';
