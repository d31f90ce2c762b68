// The due heap moved to service-kit (svc-sms's due ticker uses it too).
export { DueHeap } from '@act/service-kit';
