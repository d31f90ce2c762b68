export { ExperimentPanel, incrementalText, moreNeededText, type ExperimentPanelProps } from './ExperimentPanel';
export { ExperimentDialog, type ExperimentDialogProps, type ExperimentStepChoice } from './ExperimentDialog';
export { IncrementalRevenueLine } from './IncrementalRevenueLine';
export { ClickTrackingControl, type ClickTrackingControlProps } from './ClickTrackingControl';
export { VariantIncentiveFields, type VariantIncentiveFieldsProps } from './VariantIncentiveFields';
