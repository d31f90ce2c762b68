import type { IncomingMessage } from 'node:http';

/** The whole request body as text: the fakes read it before parsing JSON or a form, as the providers do. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
