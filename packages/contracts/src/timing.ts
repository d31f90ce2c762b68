import * as yup from 'yup';

/** The longest frequency cap an account may set: one message a week. */
export const FREQUENCY_CAP_MAX_HOURS = 168;

export const timingMessages = {
  frequencyCapHours: `Frequency cap must be a whole number of hours from 1 to ${FREQUENCY_CAP_MAX_HOURS}, or empty for off`,
};

/** `frequency_cap_hours` as both sides' settings take it: whole hours, or null (off); an empty field is off. */
export const frequencyCapHours = () =>
  yup
    .number()
    .transform((v, raw) => (raw === '' ? null : v))
    .typeError(timingMessages.frequencyCapHours)
    .integer(timingMessages.frequencyCapHours)
    .min(1, timingMessages.frequencyCapHours)
    .max(FREQUENCY_CAP_MAX_HOURS, timingMessages.frequencyCapHours)
    .nullable()
    .optional();
