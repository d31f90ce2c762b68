// The group-commit batcher moved to service-kit (svc-sms's webhook path uses it too).
export { createBatcher } from '@act/service-kit';
