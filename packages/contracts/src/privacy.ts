/**
 * Privacy requests: an admin asks every service what it holds about one person (an email address and/or a
 * phone number), to export it or to erase it. svc-auth keeps the request; each service answers over NATS when it can,
 * so a service that is down answers when it returns. Self-contained (only yup and the dependency-free email-address): the browser bundle imports it too.
 *
 * Import path: `@act/contracts/src/privacy`.
 */
import * as yup from 'yup';
import { EMAIL_MAX_LENGTH, isEmailAddress } from './email-address';

export const PRIVACY_REQUESTED = 'privacy.requested';
export const PRIVACY_COMPLETED = 'privacy.completed';
/** The services that hold shoppers' data and answer a request. */
export const PRIVACY_SERVICES = ['svc-email', 'svc-sms'] as const;
export type PrivacyService = (typeof PRIVACY_SERVICES)[number];
/** Records of one kind at most in an export (a person with more is exported in part, and the part says so). */
export const PRIVACY_EXPORT_LIMIT = 1_000;

export const PRIVACY_KINDS = ['export', 'erase'] as const;
/** export: what is held, as one document. erase: anonymise it in place on every side (counts stay) and suppress. */
export type PrivacyKind = (typeof PRIVACY_KINDS)[number];

export interface PrivacySubject {
  email: string | null;
  phone: string | null;
}

export interface PrivacyRequested extends PrivacySubject {
  requestId: number;
  kind: PrivacyKind;
}

/**
 * One service's answer. `counts`: for an export, the records of each kind it holds about the person; for an erase,
 * the records of each kind it anonymised or removed this time (a second erase of the same person counts 0).
 */
export interface PrivacyServiceResult {
  status: 'pending' | 'done' | 'failed';
  finished_at: string | null;
  counts: Record<string, number>;
  /** Kinds cut at PRIVACY_EXPORT_LIMIT. */
  truncated: string[];
  error: string | null;
}

export interface PrivacyCompleted {
  requestId: number;
  service: PrivacyService;
  result: PrivacyServiceResult;
  records: Record<string, unknown[]>;
}

export interface PrivacyRequestView extends PrivacySubject {
  id: number;
  kind: PrivacyKind;
  /**
   * Set once an erase is done (the address and number are then null here): the first characters of the person's
   * salted hash, enough to tell two erased people apart in the list, useless to find anyone.
   */
  erased_ref: string | null;
  requested_by: string;
  created_at: string;
  /** done once every service answered. */
  status: 'pending' | 'done';
  services: Record<PrivacyService, PrivacyServiceResult>;
}

/** GET /api/privacy-requests/:id/export.json */
export interface PrivacyExport {
  request: PrivacyRequestView;
  /** Per service, per kind of record. */
  data: Record<PrivacyService, Record<string, unknown[]>>;
}

export const privacyRequestSchema = yup
  .object({
    kind: yup
      .string()
      .strict()
      .oneOf([...PRIVACY_KINDS], 'Kind must be export or erase')
      .default('export'),
    email: yup
      .string()
      .typeError('Email must be text')
      .trim()
      .lowercase()
      .max(EMAIL_MAX_LENGTH, 'Email is too long')
      // Too long is the max's message; the pattern never sees more than 320 characters.
      .test('email', 'Enter a valid email address', (v) => !v || v.length > EMAIL_MAX_LENGTH || isEmailAddress(v)),
    phone: yup
      .string()
      .typeError('Phone must be text')
      .trim()
      .max(40, 'Phone is too long')
      .test('phone', 'Enter a phone number with at least 7 digits', (v) => !v || v.replace(/\D/g, '').length >= 7),
  })
  .test('one', 'Enter an email address or a phone number', (v) => Boolean(v?.email || v?.phone));
