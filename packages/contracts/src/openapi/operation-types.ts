import type { AnySchema } from 'yup';

/** The shape of an API operation as the document's generator reads it (operations.ts lists them). */
export type ServiceName = 'svc-auth' | 'svc-email' | 'svc-sms';
/**
 * `public`: called by senders, providers and mail clients (no session, no browser checks); `anyone`: no session
 * needed, but a browser call (the sign-in calls: the gateway's same-origin checks apply); `user`: signed in;
 * `admin`: an admin.
 */
export type Access = 'public' | 'anyone' | 'user' | 'admin';

export interface HeaderParam {
  name: string;
  description: string;
}

export interface Body {
  /** A yup schema (converted) or the name of a type of shapes.ts. */
  schema: AnySchema | string;
  contentType?: string;
  /** Examples by name: `fixtures:<sender>` takes every fixture of packages/sources/src/<sender>/fixtures. */
  examples?: string[];
  required?: boolean;
}

export interface Answer {
  /** A type of shapes.ts; absent: no body. */
  shape?: string;
  description: string;
  contentType?: string;
}

export interface Operation {
  service: ServiceName;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: `/api/users/{id}`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  /** Query parameters: a type of shapes.ts or a yup object schema. */
  query?: AnySchema | string;
  body?: Body;
  headers?: HeaderParam[];
  responses: Record<number, Answer | string>;
}
