// MONGODB_URI reaches the driver as given (seed lists, mongodb+srv, options, credentials with their auth database);
// the service's database is the driver's dbName option.
import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { mongoTarget } from './config';
import { connectMongo, mongoConnectOptions } from './mongo';
import { createLogger } from './logger';
import { call, startServiceProcess, testDbName, type ServiceProcess } from './testing';

const SEED_LIST = 'mongodb://act:CHANGE_ME@mongo-0.mongo:27017,mongo-1.mongo:27017,mongo-2.mongo:27017/?replicaSet=rs0&authSource=admin';
const SRV = 'mongodb+srv://act:pw@cluster0.example.net/?retryWrites=true&w=majority';

function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  for (const [k, v] of Object.entries(vars)) if (v === undefined) delete process.env[k];
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * What the driver makes of the target, no connection opened: mongoose gives MongoClient the URI and the options
 * less `dbName`, which it passes to `client.db()` instead (mongoose/lib/drivers/node-mongodb-native/connection.js).
 */
function driverView(uri: string, dbName: string) {
  const { dbName: db, ...clientOptions } = mongoConnectOptions(uri, dbName);
  const client = new MongoClient(uri, clientOptions);
  const { options } = client;
  return {
    hosts: options.hosts.map(String),
    srvHost: options.srvHost,
    replicaSet: options.replicaSet,
    dbName: client.db(db).databaseName,
    authSource: options.credentials?.source,
    username: options.credentials?.username,
  };
}

describe('MongoDB target', () => {
  it('a replica set seed list (infra/k8s/secret.example.yaml) goes to the driver unchanged, with the database by name', () => {
    const target = withEnv({ MONGODB_URI: SEED_LIST, MONGODB_DB: undefined }, () => mongoTarget('act_email'));
    expect(target).toEqual({ uri: SEED_LIST, dbName: 'act_email' });
    expect(driverView(target.uri, target.dbName)).toEqual({
      hosts: ['mongo-0.mongo:27017', 'mongo-1.mongo:27017', 'mongo-2.mongo:27017'],
      srvHost: undefined,
      replicaSet: 'rs0',
      dbName: 'act_email',
      authSource: 'admin',
      username: 'act',
    });
  });

  it('mongodb+srv goes to the driver unchanged (the SRV lookup is the driver\'s, at connect)', () => {
    const target = withEnv({ MONGODB_URI: SRV, MONGODB_DB: 'act_sms_blue' }, () => mongoTarget('act_sms'));
    expect(target).toEqual({ uri: SRV, dbName: 'act_sms_blue' });
    const view = driverView(target.uri, target.dbName);
    expect(view).toMatchObject({ srvHost: 'cluster0.example.net', dbName: 'act_sms_blue', username: 'act' });
  });

  it('the URI path keeps its meaning (the auth database) and the URI\'s own options win over the defaults', () => {
    const uri = 'mongodb://u:p@db.internal:27017/admin?maxPoolSize=50&appName=act';
    const target = withEnv({ MONGODB_URI: uri, MONGODB_DB: undefined }, () => mongoTarget('act_auth'));
    expect(target.uri).toBe(uri);
    expect(driverView(target.uri, target.dbName)).toMatchObject({ dbName: 'act_auth', authSource: 'admin', hosts: ['db.internal:27017'] });
    expect(mongoConnectOptions(uri, 'act_auth')).toEqual({ dbName: 'act_auth', serverSelectionTimeoutMS: 5_000, heartbeatFrequencyMS: 2_000 });
    expect(new MongoClient(uri, mongoConnectOptions(uri, 'act_auth')).options.maxPoolSize).toBe(50);
  });

  it('connectMongo hands mongoose the URI as given and the database as dbName', async () => {
    const opened: unknown[][] = [];
    const fake = { on: () => fake, asPromise: async () => fake };
    // The query recorder of npm test's index check adds command monitoring: this test is about the rest.
    const queryLog = process.env.MONGO_QUERY_LOG_DIR;
    delete process.env.MONGO_QUERY_LOG_DIR;
    const spy = jest.spyOn(mongoose, 'createConnection').mockImplementation(((...args: unknown[]) => {
      opened.push(args);
      return fake;
    }) as never);
    try {
      await connectMongo({ uri: SEED_LIST, dbName: 'act_auth' }, createLogger('test'));
    } finally {
      spy.mockRestore();
      if (queryLog !== undefined) process.env.MONGO_QUERY_LOG_DIR = queryLog;
    }
    expect(opened).toEqual([[SEED_LIST, { dbName: 'act_auth', serverSelectionTimeoutMS: 5_000, heartbeatFrequencyMS: 2_000, maxPoolSize: 20 }]]);
  });
});

describe('a service started with an option-laden MONGODB_URI', () => {
  const base = new MongoClient(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017').options.hosts[0];
  const db = testDbName('kit_uri');
  let svc: ServiceProcess;
  let client: MongoClient;

  beforeAll(async () => {
    svc = await startServiceProcess('packages/service-kit/src/fixtures/probe', {
      MONGODB_URI: `mongodb://${base.host}:${base.port}/?retryWrites=false&appName=act-probe`,
      MONGODB_DB: db,
    });
    client = await MongoClient.connect(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');
  });
  afterAll(async () => {
    await svc?.stop();
    await client?.db(db).dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it('starts and writes to the database MONGODB_DB names', async () => {
    const res = await call(svc.url, 'POST', '/probe');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ db });
    expect(await client.db(db).collection('probes').countDocuments()).toBe(1);
  });
});
