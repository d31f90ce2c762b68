export { AttributionLedger, type TouchInput, type PurchaseInput } from './ledger';
export { RevenueService, type BuyerRef, type RevenueSide } from './service';
export { revenueRouter } from './routes';
export { handleRevenueEvent, startRevenueConsumer } from './events';
export { summarize } from './summary';
export { cohortFunnel, type CohortContact } from './cohort';
export { contactNumbersOf } from './contact-numbers';
