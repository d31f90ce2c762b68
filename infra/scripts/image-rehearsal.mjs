#!/usr/bin/env node
// The Dockerfiles' steps, run here without Docker (the development machine has no daemon): each image's stages
// are played in a folder of their own (COPY, RUN, WORKDIR, ENV, CMD read from infra/docker/*.Dockerfile), so the
// final folder holds what the image would (manifests, production dependencies only, the copied sources). Then the
// four processes start from those folders with NODE_ENV=production, and a sign-in, both webhooks and a page of
// the shell go through the gateway. It finds what `docker compose up --build` would: a dependency kept in
// devDependencies, a source folder the Dockerfile does not copy, a path that only exists in the checkout.
// Not played: FROM (the base image is this machine's Node), USER, and the compiling stages (`frontends`: npm ci of
// everything + rspack; `build`: npm ci of everything + esbuild), whose dist folders are taken from this checkout's
// build (the frontends rebuilt when stale, the backends always: it takes a second). Checked besides: each final
// folder runs plain node on compiled JavaScript and holds no TypeScript tooling.
//   node infra/scripts/image-rehearsal.mjs [--keep]     (--keep: leave the folders in .run/images for a look)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureMongo, ensureNats } from './deps.mjs';
import { buildFrontends, FRONTENDS, isStale } from './lib/frontends.mjs';
import { waitForHealthz } from './lib/health.mjs';
import { freePort } from './lib/net.mjs';
import { startProcess } from './lib/proc.mjs';
import { ROOT, RUN_DIR } from './lib/paths.mjs';
import { SERVICES } from './stack.mjs';
import { BACKENDS, buildBackend } from './build-services.mjs';

const KEEP = process.argv.includes('--keep');
/** Stages that compile (dev tools, npm ci of everything): their output is this checkout's build. */
const LOCAL_STAGES = ['frontends', 'build'];
/** Packages that must not reach a production image: compiling is done before it. */
const TOOLING = ['tsx', 'typescript', 'esbuild', '@swc/core', 'ts-node'];
const OUT = path.join(RUN_DIR, 'images');
const DOCKER_DIR = path.join(ROOT, 'infra/docker');
const say = (line) => console.log(`[images] ${line}`);

/** Instructions of a Dockerfile: continuation lines joined, comments and the syntax line dropped. */
function instructions(file) {
  const text = readFileSync(file, 'utf8').replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

/** `.dockerignore` as predicates on a path relative to the build context (the patterns this project uses). */
function ignoredBy() {
  const patterns = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const tests = patterns.map((p) => {
    const re = p
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/^\*\*\//, '(?:.*/)?')
      .replace(/\*/g, '[^/]*');
    return new RegExp(`^${re}(?:/.*)?$`);
  });
  return (rel) => tests.some((t) => t.test(rel));
}

/** The build context as Docker would send it: the checkout's files (tracked or not ignored) minus .dockerignore. */
function contextFiles() {
  const ignored = ignoredBy();
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  return out
    .split('\n')
    .filter(Boolean)
    .filter((f) => !ignored(f) && existsSync(path.join(ROOT, f)));
}

function copyFromContext(files, src, dest) {
  const prefix = src === '.' ? '' : `${src.replace(/\/$/, '')}/`;
  const picked = files.filter((f) => (prefix ? f === src || f.startsWith(prefix) : true));
  if (picked.length === 0) throw new Error(`COPY ${src}: nothing in the build context`);
  for (const f of picked) {
    const rel = prefix && f !== src ? f.slice(prefix.length) : prefix ? path.basename(f) : f;
    const to = path.join(dest, rel);
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(path.join(ROOT, f), to);
  }
}

/**
 * Plays one Dockerfile into .run/images/<image>/<stage>; resolves with the final stage's folder, working directory,
 * environment and command. `args` are the build args (--build-arg).
 */
function playDockerfile(image, file, args) {
  const files = contextFiles();
  const stages = {};
  const vars = { ...args };
  const expand = (s) => s.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => vars[a ?? b] ?? '');
  let stage = null;
  for (const { op, args: raw } of instructions(file)) {
    if (op === 'ARG') {
      const [name, def] = raw.split('=');
      if (!(name in vars)) vars[name] = def ?? '';
      continue;
    }
    if (op === 'FROM') {
      const m = /\bAS\s+(\S+)/i.exec(raw);
      const name = m ? m[1] : 'final';
      const dir = path.join(OUT, image, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      stage = { name, dir, cwd: dir, env: {}, cmd: null, local: LOCAL_STAGES.includes(name) };
      stages[name] = stage;
      if (stage.local) say(`${image}: stage ${name} taken from this checkout's build`);
      continue;
    }
    if (!stage) throw new Error(`${file}: ${op} before FROM`);
    if (stage.local) continue;
    const inStage = (p, s = stage) => (p.startsWith('/app') ? path.join(s.dir, p.slice('/app'.length)) : path.join(s.cwd, p));
    if (op === 'WORKDIR') {
      stage.cwd = inStage(expand(raw));
      mkdirSync(stage.cwd, { recursive: true });
    } else if (op === 'COPY') {
      const parts = expand(raw).split(/\s+/);
      const from = parts[0].startsWith('--from=') ? parts.shift().slice('--from='.length) : null;
      const dest = inStage(parts.pop());
      for (const src of parts) {
        if (from === null) copyFromContext(files, src, src === '.' ? dest : path.join(dest, parts.length > 1 ? path.basename(src) : ''));
        else if (stages[from]?.local) cpSync(path.join(ROOT, src.replace(/^\/app\//, '')), dest, { recursive: true });
        else cpSync(inStage(src, stages[from]), dest, { recursive: true });
      }
    } else if (op === 'RUN') {
      // The image's cache clean-up would empty this machine's npm cache: it changes nothing in the folder.
      const command = raw.replace(/&&\s*npm cache clean --force/g, '');
      say(`${image}/${stage.name}: RUN ${command.slice(0, 110)}${command.length > 110 ? '…' : ''}`);
      execFileSync('sh', ['-c', command], {
        cwd: stage.cwd,
        env: { ...process.env, ...vars, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
    } else if (op === 'ENV') {
      for (const m of expand(raw).matchAll(/(\w+)=(\S+)/g)) stage.env[m[1]] = m[2].startsWith('/app') ? inStage(m[2]) : m[2];
    } else if (op === 'CMD') {
      stage.cmd = JSON.parse(raw);
    }
    // USER: the folder belongs to whoever runs this; the services need no root either way.
  }
  return stage;
}

function start(name, stage, env) {
  const [bin, ...argv] = stage.cmd;
  if (bin !== 'node') throw new Error(`${name}: CMD ${stage.cmd.join(' ')} is not a node command`);
  // PATH and HOME only from this machine: everything else the process sees is the image's or the compose file's.
  const base = { PATH: process.env.PATH, HOME: process.env.HOME };
  // Quiet unless it fails: the tail is printed then.
  const handle = startProcess(name, process.execPath, argv, { cwd: stage.cwd, env: { ...base, ...stage.env, ...env }, log: () => {} });
  return handle;
}

async function check(what, promise) {
  const res = await promise;
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  say(`ok: ${what} (${res.status})`);
  return res;
}

const stale = FRONTENDS.filter(isStale);
if (stale.length > 0) {
  say(`building ${stale.join(', ')} (the frontends stage)`);
  await buildFrontends({ only: stale });
}
say('compiling the gateway and the services (the build stage)');
for (const ws of BACKENDS) await buildBackend(ws);
rmSync(OUT, { recursive: true, force: true });
const finals = {};
const started = Date.now();
for (const name of Object.keys(SERVICES)) {
  finals[name] = playDockerfile(name, path.join(DOCKER_DIR, 'service.Dockerfile'), { SERVICE: name });
}
finals.gateway = playDockerfile('gateway', path.join(DOCKER_DIR, 'gateway.Dockerfile'), {});
say(`images played in ${Math.round((Date.now() - started) / 1000)} s`);
for (const [name, stage] of Object.entries(finals)) {
  const cmd = stage.cmd?.join(' ') ?? '';
  if (!/^node( --[\w-]+)* dist\/index\.js$/.test(cmd)) throw new Error(`${name}: CMD "${cmd}" does not run the compiled dist/index.js with plain node`);
  const root = path.join(OUT, name, 'final');
  const found = TOOLING.filter((pkg) => existsSync(path.join(root, 'node_modules', pkg)) || existsSync(path.join(stage.cwd, 'node_modules', pkg)));
  if (found.length) throw new Error(`${name}: production dependencies include ${found.join(', ')}`);
  const sources = readdirSync(root, { recursive: true }).filter((f) => !String(f).includes('node_modules') && /\.tsx?$/.test(String(f)));
  if (sources.length) throw new Error(`${name}: the image holds TypeScript sources (${sources.slice(0, 3).join(', ')})`);
  say(`ok: ${name} runs "${cmd}", no ${TOOLING.join('/')} in its node_modules`);
}

const mongo = process.env.MONGODB_URI ? null : await ensureMongo({});
const nats = process.env.NATS_URL ? null : await ensureNats({});
const secrets = {
  IDENTITY_SECRET: randomBytes(24).toString('base64url'),
  SESSION_SECRET: randomBytes(24).toString('base64url'),
  SECRETS_KEY: randomBytes(24).toString('base64url'),
};
const adminPassword = randomBytes(9).toString('base64url');
const run = Date.now().toString(36);
const handles = [];
let failed = null;
try {
  const ports = {};
  for (const name of Object.keys(SERVICES)) {
    ports[name] = await freePort();
    const handle = start(name, finals[name], {
      ...secrets,
      HOST: '127.0.0.1',
      PORT: String(ports[name]),
      MONGODB_URI: process.env.MONGODB_URI ?? mongo.uri,
      MONGODB_DB: `${SERVICES[name].db}_images_${run}`,
      NATS_URL: process.env.NATS_URL ?? nats.url,
      ADMIN_PASSWORD: adminPassword,
    });
    handles.push(handle);
    await waitForHealthz(handle, `http://127.0.0.1:${ports[name]}/healthz`);
  }
  const gatewayPort = await freePort();
  const url = `http://127.0.0.1:${gatewayPort}`;
  const upstreams = Object.fromEntries(
    Object.entries(SERVICES).map(([svc, { urlEnv }]) => [urlEnv, `http://127.0.0.1:${ports[svc]}`]),
  );
  const gateway = start('gateway', finals.gateway, { ...upstreams, PORT: String(gatewayPort), HOST: '127.0.0.1', IDENTITY_SECRET: secrets.IDENTITY_SECRET });
  handles.push(gateway);
  await waitForHealthz(gateway, `${url}/healthz`);

  const page = await (await check('GET / (the shell)', fetch(`${url}/`))).text();
  if (!page.includes('id="root"')) throw new Error('GET /: not the shell page');
  const remotes = await (await check('GET /remotes.json', fetch(`${url}/remotes.json`))).json();
  for (const [name, entry] of Object.entries(remotes)) await check(`GET ${name} remote entry`, fetch(new URL(entry, url)));
  const login = await check(
    'POST /api/login as admin',
    fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: adminPassword }),
    }),
  );
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  // An active SMS integration for the funnel, so the SMS side keeps the contact too (without one it answers 202).
  await check(
    'POST /api/sms-webhook-integrations',
    fetch(`${url}/api/sms-webhook-integrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'Images', funnel_id: `images-${run}`, reminder_delay: 30, active: true }),
    }),
  );
  const contact = { id: `img-${run}`, email: `image-${run}@example.com`, phone: '+14155550100' };
  for (const hook of ['/api/webhook', '/api/sms/webhook']) {
    await check(
      `POST ${hook}`,
      fetch(`${url}${hook}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'contact_created', funnel_id: `images-${run}`, contact }),
      }),
    );
  }
  for (const list of ['/api/contacts', '/api/sms-contacts']) {
    const body = await (await check(`GET ${list}`, fetch(`${url}${list}`, { headers: { cookie } }))).json();
    const rows = Array.isArray(body) ? body : (body.items ?? body.rows ?? []);
    if (!rows.some((c) => c.contact_id === contact.id)) throw new Error(`GET ${list}: the webhook's contact is missing`);
    say(`ok: ${list} lists the webhook's contact`);
  }
} catch (err) {
  failed = err;
  for (const h of handles) console.error(`[images] last output of ${h.name}:\n${h.tail()}`);
} finally {
  for (const h of handles.reverse()) await h.stop();
  await mongo?.stop();
  await nats?.stop();
  if (!KEEP) rmSync(OUT, { recursive: true, force: true });
}
if (failed) {
  console.error(`[images] FAILED: ${failed.message}`);
  process.exit(1);
}
say(`all four images start and serve (${Math.round((Date.now() - started) / 1000)} s)${KEEP ? `; folders in ${path.relative(ROOT, OUT)}` : ''}`);
