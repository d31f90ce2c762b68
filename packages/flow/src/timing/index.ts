export { firstAllowed, laterHold, SEND, type TimingDecision, type TimingRule } from './decision';
export {
  EXIT_SETTINGS_DEFAULT,
  exitDecision,
  type CartChangeRule,
  type ContactFlowState,
  type ExitDecision,
  type ExitSettings,
  type FlowEvent,
} from './exit';
export {
  capLookbackStart,
  FREQUENCY_CAP_DEFAULT,
  frequencyCapDecision,
  type FrequencyCap,
  type RecentTouch,
} from './frequency-cap';
export { zonesOfNumber } from './phone-zones';
export {
  EMAIL_QUIET_HOURS_DEFAULT,
  inQuietHours,
  quietHoursDecision,
  quietHoursEnd,
  type QuietHours,
} from './quiet-hours';
export { timingDecisions, type TimingRecipient, type TouchReader } from './rules';
export { HELD, timingStep, type Held, type TimedWork } from './step';
export {
  countryZone,
  describeZone,
  recipientZone,
  zoneHintsOf,
  type AddressHint,
  type RecipientZone,
  type ZoneBasis,
  type ZoneHints,
} from './zone';
