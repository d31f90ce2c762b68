// The baseline: a bare Koa app that reads the JSON body and answers it, as cheap as an HTTP server gets here.
import Koa from 'koa';

const app = new Koa();
app.use(async (ctx) => {
  let body = '';
  for await (const chunk of ctx.req) body += chunk;
  ctx.body = { ok: true, length: body.length };
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
