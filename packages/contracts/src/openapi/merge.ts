/**
 * Merges the services' parts of the OpenAPI document into the one the gateway serves at /api/openapi.json. Plain
 * code, no TypeScript tooling: the gateway runs it in production.
 */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, unknown> };
  tags?: { name: string; description?: string }[];
}

const INFO = {
  title: 'Abandoned Cart Tracker API',
  version: '1.0.0',
  description:
    'Every /api call of the three services behind the gateway: the funnel webhooks (the spec\'s formats, ClickFunnels 2.0, ' +
    'ClickFunnels Classic, Shopify) with their signature headers, the Twilio and Resend callbacks, the unsubscribe ' +
    'endpoints, and the calls of the pages (session cookie `act.sid` from POST /api/login). Errors answer `{ "error": message }`.',
};

/** What integrators come for first: the calls that senders, providers and mail clients make. */
const FIRST_TAGS = ['Webhooks', 'Provider callbacks', 'Unsubscribe', 'Session'];
const rank = (tag: string) => (FIRST_TAGS.includes(tag) ? FIRST_TAGS.indexOf(tag) : FIRST_TAGS.length);

/**
 * One document from the parts. A path answered by two services, or a schema name the parts define differently, is
 * an error: the gateway would send that path to one service only, and a client could not tell which shape applies.
 */
export function mergeOpenApi(parts: OpenApiDocument[], servers: { url: string }[] = [{ url: '/' }]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, JsonSchema> = {};
  const securitySchemes: Record<string, unknown> = {};
  const tags = new Set<string>();
  for (const part of parts) {
    for (const [p, item] of Object.entries(part.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (paths[p]?.[method]) throw new Error(`${method.toUpperCase()} ${p} is in two parts of the API document`);
        (paths[p] ??= {})[method] = op;
        for (const tag of (op as { tags?: string[] }).tags ?? []) tags.add(tag);
      }
    }
    for (const [name, schema] of Object.entries(part.components.schemas)) {
      if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(schema))
        throw new Error(`The parts of the API document define schema ${name} differently`);
      schemas[name] = schema;
    }
    Object.assign(securitySchemes, part.components.securitySchemes);
  }
  const byName = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: INFO,
    servers,
    tags: [...tags].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((name) => ({ name })),
    paths: byName(paths),
    components: { schemas: byName(schemas), securitySchemes },
  };
}
