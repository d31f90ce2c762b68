export { countdown, eachAtMost, eachReleasing, once } from './concurrency';
export { insertAll } from './insert';
export { experimentStep, type ExperimentStepOptions, type ExperimentTarget, type NewAssignment, type StepPlan, type StoredExperiment } from './experiment';
export { isOpen, runPipeline, step, underLease, type BurstContext, type FlowStep, type Work } from './pipeline';
export { DuePoller, type DuePollerOptions, type PolledRunner } from './poller';
export { RecentReads } from './recent';
export {
  BUSY,
  FlowRunner,
  NOT_DUE,
  type FlowChannel,
  type FlowRecorder,
  type FlowRunnerOptions,
  type GateAnswer,
  type StepStore,
} from './runner';
export { nextStepAt, pendingSteps } from './schedule';
export * from './timing';
