import { createWriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies past this are not kept: the contract check validates shapes, a few of which suffice. */
const MAX_BODY = 1024 * 1024;

/**
 * Appends each /api answer as one JSON line `{ method, path, status, contentType, body }` (tests only: see
 * `API_RECORD_FILE`). The body is copied as it is written to the client, so the proxy's streaming is untouched.
 */
export function createRecorder(file: string) {
  const out = createWriteStream(file, { flags: 'a' });
  return function record(req: IncomingMessage, res: ServerResponse, path: string): void {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk == null || typeof chunk === 'function' || size > MAX_BODY) return;
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buf.length;
      chunks.push(buf);
    };
    // The proxy hands the upstream's headers to writeHead (often as a raw [name, value, ...] list): read them there.
    const sent: Record<string, string> = {};
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      const headers = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null);
      const pairs: unknown[] = Array.isArray(headers) ? (Array.isArray(headers[0]) ? (headers as unknown[][]).flat() : headers) : Object.entries(headers ?? {}).flat();
      for (let i = 0; i + 1 < pairs.length; i += 2) sent[String(pairs[i]).toLowerCase()] = String(pairs[i + 1]);
      return writeHead(...args);
    }) as ServerResponse['writeHead'];
    const header = (name: string) => String(res.getHeader(name) ?? sent[name] ?? '');
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    res.once('finish', () => {
      const encoded = header('content-encoding');
      if (size > MAX_BODY || (encoded && encoded !== 'identity')) return;
      const line = {
        method: req.method ?? 'GET',
        path,
        status: res.statusCode,
        contentType: header('content-type'),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      out.write(JSON.stringify(line) + '\n');
    });
  };
}
