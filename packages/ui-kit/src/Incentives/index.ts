export { IncentivesPanel, incentiveSummary, type IncentivesPanelProps, type IncentiveStep } from './IncentivesPanel';
export { PoolUploadDialog, type PoolUploadDialogProps } from './PoolUploadDialog';
export { StepIncentiveDialog, type StepIncentiveDialogProps } from './StepIncentiveDialog';
export { ShopCodesLine, type ShopCodesLineProps } from './ShopCodesLine';
export { RedemptionsByStep, type RedemptionsByStepProps } from './RedemptionsByStep';
