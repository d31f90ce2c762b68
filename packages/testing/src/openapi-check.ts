import Ajv2020 from 'ajv/dist/2020';
import type { OpenApiDocument } from '@act/contracts/src/openapi/merge';

/** One answer seen by the gateway (infra/e2e records them during the e2e phase). */
export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
}

export interface CheckResult {
  checked: number;
  /** Answers that contradict the document: a body that does not validate, a status below 500 it does not name. */
  failures: string[];
  /** Server-side failures the document does not name (502/503/504 of the gateway while a service restarts): reported. */
  unlisted: string[];
}

interface Compiled {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** Validates answers against the document's response schemas with Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect). */
export function createResponseChecker(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  // The document's references are `#/components/...`: rooted at the document, whichever schema uses them.
  const rooted = JSON.parse(JSON.stringify(doc.components).replaceAll('"#/components/', '"openapi.json#/components/')) as unknown;
  ajv.addSchema({ $id: 'openapi.json', components: rooted });
  const operations: Compiled[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    // Fixed segments before parameters: `/api/resend/templates/campaign/{campaignId}` wins over `/{id}`.
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i');
    for (const [method, op] of Object.entries(item)) operations.push({ method, template, pattern, responses: (op as { responses: Compiled['responses'] }).responses });
  }
  operations.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  const validators = new Map<unknown, ReturnType<typeof ajv.compile>>();
  const validator = (schema: unknown) => {
    let v = validators.get(schema);
    if (!v) {
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/');
      v = ajv.compile(JSON.parse(text) as object);
      validators.set(schema, v);
    }
    return v;
  };

  function operationFor(method: string, path: string): Compiled | undefined {
    const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    return operations.find((o) => o.method === m && o.pattern.test(path));
  }

  function check(records: RecordedResponse[]): CheckResult {
    const result: CheckResult = { checked: 0, failures: [], unlisted: [] };
    for (const r of records) {
      const op = operationFor(r.method, r.path);
      if (!op) continue; // an unknown path or method: the services' 404/405, not a documented call
      const what = `${r.method} ${r.path} → ${r.status}`;
      const answer = op.responses[String(r.status)];
      if (!answer) {
        (r.status < 500 ? result.failures : result.unlisted).push(`${what}: status not in the document for ${op.method.toUpperCase()} ${op.template}`);
        continue;
      }
      const mediaType = r.contentType.split(';')[0]!.trim();
      const schema = answer.content?.[mediaType]?.schema;
      if (!schema || mediaType !== 'application/json' || r.method === 'HEAD') continue;
      result.checked += 1;
      let body: unknown;
      try {
        body = JSON.parse(r.body);
      } catch {
        result.failures.push(`${what}: the body is not JSON`);
        continue;
      }
      const validate = validator(schema);
      if (!validate(body)) {
        const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
        result.failures.push(`${what}: ${errors.join('; ')} (body: ${r.body.slice(0, 200)})`);
      }
    }
    return result;
  }

  return { check, operationFor };
}

/** Compiles every schema of components.schemas; throws naming the first that is not valid JSON Schema 2020-12. */
export function compileDocumentSchemas(doc: OpenApiDocument): number {
  const ajv = new Ajv2020({ strict: false });
  const rooted = JSON.parse(JSON.stringify(doc.components).replaceAll('"#/components/', '"openapi.json#/components/')) as unknown;
  ajv.addSchema({ $id: 'openapi.json', components: rooted });
  const names = Object.keys(doc.components.schemas);
  for (const name of names) {
    try {
      ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
    } catch (err) {
      throw new Error(`schema ${name}: ${(err as Error).message}`);
    }
  }
  return names.length;
}

/**
 * Validates a request body against an operation's JSON request schema: the Ajv error messages, empty when it
 * validates (for tests that hold senders' real deliveries against the document).
 */
export function requestBodyErrors(doc: OpenApiDocument, method: string, path: string, body: unknown): string[] {
  const op = doc.paths[path]?.[method] as { requestBody?: { content: Record<string, { schema: unknown }> } } | undefined;
  const schema = op?.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`${method.toUpperCase()} ${path} has no JSON request body in the document`);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const rooted = JSON.parse(JSON.stringify(doc.components).replaceAll('"#/components/', '"openapi.json#/components/')) as unknown;
  ajv.addSchema({ $id: 'openapi.json', components: rooted });
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as object);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}
