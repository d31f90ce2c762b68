export { campaignResults, resultsCsv, winnerRecord, type Engagement } from './results';
export { ExperimentSettings, experimentOf, type StoredCampaignExperiment } from './settings';
export { ExperimentsService, type StepPlan } from './service';
export { experimentsRouter } from './routes';
