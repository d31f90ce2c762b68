/**
 * Builds each service's part of the OpenAPI 3.1 document from operations.ts: request bodies and queries through
 * @sodaru/yup-to-json-schema (the handlers' own yup rules), answers and query shapes through ts-json-schema-generator
 * (the types in shapes.ts). Development only (TypeScript tooling): `npm run openapi` writes the parts to
 * packages/contracts/openapi/, which the services serve and the gateway merges (docs/api.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { convertSchema } from '@sodaru/yup-to-json-schema';
import { createGenerator } from 'ts-json-schema-generator';
import type { AnySchema } from 'yup';
import { OPERATIONS, type Answer, type Operation, type ServiceName } from './operations';
import type { JsonSchema, OpenApiDocument } from './merge';

export const SERVICES: readonly ServiceName[] = ['svc-auth', 'svc-email', 'svc-sms'];
export const SESSION_SCHEME = 'sessionCookie';
const SOURCES_DIR = path.resolve(__dirname, '../../../sources/src');

/** The spec's own formats (docs/webhooks.md); the real senders' examples are the adapters' fixtures. */
const GENERIC_EXAMPLES: Record<string, unknown> = {
  'generic: contact_created': {
    event: 'contact_created',
    funnel_id: 'summer-sale',
    contact: { id: 'c-1001', email: 'jane@example.com', phone: '+1 555 123 4567', first_name: 'Jane' },
  },
  'generic: legacy purchase_created': {
    event_type: 'purchase_created',
    funnel_id: 'summer-sale',
    contact_id: 'c-1001',
    email: 'jane@example.com',
    amount: 49.0,
    currency: 'USD',
  },
  'generic: handshake': { event: 'handshake' },
};

type Json = Record<string, unknown>;

/** The types of shapes.ts operations.ts names (and what they refer to) as JSON Schema, for components.schemas. */
export function shapeSchemas(): Record<string, JsonSchema> {
  const generator = createGenerator({
    path: path.join(__dirname, 'shapes.ts'),
    tsconfig: path.resolve(__dirname, '../../tsconfig.json'),
    expose: 'export',
    topRef: true,
    jsDoc: 'extended',
    // Answers may grow a field without breaking a client; a field that changes type or disappears does break the check.
    additionalProperties: true,
    skipTypeCheck: true,
  });
  const definitions: Record<string, JsonSchema> = {};
  for (const name of shapeNames()) Object.assign(definitions, generator.createSchema(name).definitions);
  // OpenAPI's component names allow letters, digits, `.`, `-` and `_`: `Paged<Contact>` becomes `PagedContact`.
  const named = Object.fromEntries(Object.entries(definitions).map(([name, schema]) => [componentName(name), schema]));
  const text = JSON.stringify(named).replace(/"#\/definitions\/([^"]+)"/g, (_m, name: string) => JSON.stringify(`#/components/schemas/${componentName(decodeURIComponent(name))}`));
  return sortKeys(JSON.parse(text) as Record<string, JsonSchema>);
}

/** Every type name operations.ts uses, and the error shape every operation may answer. */
function shapeNames(): string[] {
  const names = new Set(['ErrorResponse']);
  for (const op of OPERATIONS) {
    if (typeof op.query === 'string') names.add(op.query);
    if (typeof op.body?.schema === 'string') names.add(op.body.schema);
    for (const a of Object.values(op.responses)) if (typeof a !== 'string' && a.shape) names.add(a.shape);
  }
  return [...names].sort();
}

function componentName(typeName: string): string {
  return typeName.replace(/[^A-Za-z0-9._-]/g, '');
}

/** yup's conversion, adjusted to what the server accepts: a field with a default may be left out. */
function fromYup(schema: AnySchema): JsonSchema {
  const converted = clean(convertSchema(schema as never) as Json);
  return converted;
}

function clean(node: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' && Array.isArray(value) && value.length === 0) continue; // yup.mixed(): any JSON value
    if (key === 'default' && node.type === 'object') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Json>).map(([k, v]) => [k, clean(v)]));
    } else out[key] = value;
  }
  const props = out.properties as Record<string, Json> | undefined;
  if (Array.isArray(out.required) && props) {
    const required = (out.required as string[]).filter((name) => props[name]?.default === undefined);
    if (required.length) out.required = required;
    else delete out.required;
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function schemaOf(source: AnySchema | string, shapes: Record<string, JsonSchema>): JsonSchema {
  if (typeof source !== 'string') return fromYup(source);
  if (!shapes[source]) throw new Error(`shapes.ts exports no type ${source}`);
  return ref(source);
}

function queryParameters(source: AnySchema | string, shapes: Record<string, JsonSchema>): Json[] {
  let schema = typeof source === 'string' ? shapes[source] : fromYup(source);
  // An alias (`type X = Y`) is a reference to the aliased type.
  while (typeof schema?.$ref === 'string') schema = shapes[schema.$ref.replace('#/components/schemas/', '')];
  if (!schema) throw new Error(`shapes.ts exports no type ${source as string}`);
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = (schema.required ?? []) as string[];
  return Object.entries(props).map(([name, p]) => {
    const { description, ...rest } = p;
    return { name, in: 'query', required: required.includes(name), ...(description ? { description } : {}), schema: rest };
  });
}

function pathParameters(p: string): Json[] {
  return [...p.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'key' || name === 'token' ? { type: 'string' } : { type: 'integer', minimum: 1 },
  }));
}

function examples(names: string[] | undefined): Json | undefined {
  if (!names) return undefined;
  const out: Json = {};
  for (const [name, value] of Object.entries(GENERIC_EXAMPLES)) out[name] = { value };
  for (const name of names) {
    const sender = name.replace(/^fixtures:/, '');
    const dir = path.join(SOURCES_DIR, sender, 'fixtures');
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.json') || file.startsWith('malformed')) continue;
      out[`${sender}: ${file.replace(/\.json$/, '')}`] = { value: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) };
    }
  }
  return out;
}

function answer(status: number, given: Answer | string): Json {
  const a: Answer = typeof given === 'string' ? { description: given, ...(status >= 400 && { shape: 'ErrorResponse' }) } : given;
  if (!a.shape && !a.contentType) return { description: a.description };
  return {
    description: a.description,
    content: { [a.contentType ?? 'application/json']: { schema: a.shape ? ref(a.shape) : { type: 'string' } } },
  };
}

/** The errors every operation of a kind can answer, unless it names its own. */
function usualErrors(op: Operation): Record<number, string> {
  const errors: Record<number, string> = {};
  if (op.body || op.query || op.path.includes('{')) errors[400] = 'Invalid input: the message names the field.';
  if (op.access === 'user' || op.access === 'admin') errors[401] = 'Not signed in.';
  const changes = op.method !== 'get';
  // The gateway's checks of browser calls that change data (gateway/src/security/csrf.ts), and its body cap.
  if (changes && op.access !== 'public') {
    errors[403] = 'A cross-site browser request.';
    errors[415] = 'A browser request whose body is not JSON.';
  }
  if (op.access === 'admin') errors[403] = changes ? 'Admins only; or a cross-site browser request.' : 'Admins only.';
  if (changes) errors[413] = 'Body over the 1 MB limit.';
  if (/\{(id|campaignId)\}/.test(op.path)) errors[404] = 'No such record.';
  return errors;
}

function operationObject(op: Operation, shapes: Record<string, JsonSchema>): Json {
  const parameters = [
    ...pathParameters(op.path),
    ...(op.query ? queryParameters(op.query, shapes) : []),
    ...(op.headers ?? []).map((h) => ({ name: h.name, in: 'header', required: false, description: h.description, schema: { type: 'string' } })),
  ];
  const responses: Json = {};
  const all = { ...usualErrors(op), ...op.responses };
  for (const status of Object.keys(all).map(Number).sort((a, b) => a - b)) responses[String(status)] = answer(status, all[status]!);
  const body = op.body && {
    required: op.body.required ?? true,
    content: {
      [op.body.contentType ?? 'application/json']: {
        schema: schemaOf(op.body.schema, shapes),
        ...(op.body.examples && { examples: examples(op.body.examples) }),
      },
    },
  };
  return {
    operationId: `${op.method}${op.path.replace(/^\/api/, '').replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: op.summary,
    tags: [op.tag],
    ...(op.access === 'admin' && { description: 'Admins only.' }),
    security: op.access === 'public' || op.access === 'anyone' ? [] : [{ [SESSION_SCHEME]: [] }],
    ...(parameters.length && { parameters }),
    ...(body && { requestBody: body }),
    responses,
  };
}

/** The names of components.schemas a value refers to, followed through the schemas themselves. */
function referenced(value: unknown, shapes: Record<string, JsonSchema>, found = new Set<string>()): Set<string> {
  const text = JSON.stringify(value);
  for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
    if (found.has(name!)) continue;
    if (!shapes[name!]) throw new Error(`shapes.ts exports no type ${name}`);
    found.add(name!);
    referenced(shapes[name!], shapes, found);
  }
  return found;
}

/** One service's part: its paths and the schemas they refer to. */
export function servicePart(service: ServiceName, shapes = shapeSchemas()): OpenApiDocument {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS.filter((o) => o.service === service)) {
    (paths[op.path] ??= {})[op.method] = operationObject(op, shapes);
  }
  const names = [...referenced(paths, shapes)].sort();
  return {
    openapi: '3.1.0',
    info: { title: `Abandoned Cart Tracker: ${service}`, version: '1.0.0' },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(names.map((n) => [n, shapes[n]!])),
      securitySchemes: {
        [SESSION_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: 'act.sid',
          description: 'The session cookie set by POST /api/login (browsers send it; calls that change data also need the same-origin checks of the gateway).',
        },
      },
    },
  };
}

export function allParts(): Record<ServiceName, OpenApiDocument> {
  const shapes = shapeSchemas();
  return Object.fromEntries(SERVICES.map((s) => [s, servicePart(s, shapes)])) as Record<ServiceName, OpenApiDocument>;
}

function sortKeys<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b))) as T;
}
