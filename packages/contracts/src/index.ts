export * from './events';
export * from './webhook-signing';
