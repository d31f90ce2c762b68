import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Connection } from 'mongoose';
import { commandShapes, shapeKey, type QueryShape } from './shape';

/**
 * Records the shape of every query a process sends to MongoDB, and every index it asks MongoDB to build, as JSON
 * lines in `MONGO_QUERY_LOG_DIR` (a test setting: `npm test` sets it for the service and browser phases, and its
 * index check reads the files at the end). Off when the setting is absent: no command monitoring, no cost.
 */

export interface ShapeRecord {
  kind: 'query';
  shape: QueryShape;
  key: string;
  caller: string;
}

export interface IndexRecord {
  kind: 'index';
  collection: string;
  key: Record<string, unknown>;
  name?: string;
  partialFilterExpression?: Record<string, unknown>;
}

export type QueryLogRecord = ShapeRecord | IndexRecord;

export function queryLogDir(): string | undefined {
  return process.env.MONGO_QUERY_LOG_DIR || undefined;
}

/** Connection options the recorder needs: the driver emits command events only when asked to. */
export function queryLogConnectOptions(): { monitorCommands?: boolean } {
  return queryLogDir() ? { monitorCommands: true } : {};
}

/** Our own frames of the stack that led to the command (async frames included), outside node_modules. */
function callerOf(stack: string | undefined): string {
  const frames = (stack ?? '')
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('at ') && l.includes('/') && !l.includes('node_modules') && !l.includes('node:') && !l.includes('/query-shapes/'));
  return frames.slice(0, 3).map(repoRelative).join(' < ');
}

const ROOT_FOLDERS = ['/packages/', '/svc-auth/', '/svc-email/', '/svc-sms/', '/gateway/', '/infra/', '/bench/'];

/** `at fn (/abs/path/svc-email/src/x.ts:1:2)` → `fn (svc-email/src/x.ts:1:2)`. */
function repoRelative(frame: string): string {
  const text = frame.slice(3);
  const at = ROOT_FOLDERS.map((f) => text.lastIndexOf(f)).reduce((a, b) => Math.max(a, b), -1);
  if (at < 0) return text;
  const open = text.lastIndexOf('(', at);
  return open < 0 ? text.slice(at + 1) : `${text.slice(0, open + 1)}${text.slice(at + 1)}`;
}

export function recordQueries(conn: Connection, dir = queryLogDir()): void {
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}-${conn.name || 'db'}.jsonl`);
  const seen = new Set<string>();
  const write = (record: QueryLogRecord, dedupe: string) => {
    if (seen.has(dedupe)) return;
    seen.add(dedupe);
    appendFileSync(file, JSON.stringify(record) + '\n');
  };
  conn.getClient().on('commandStarted', (event) => {
    const command = event.command as Record<string, unknown>;
    if (event.commandName === 'createIndexes') {
      const collection = String(command.createIndexes);
      for (const index of (command.indexes as Array<Record<string, unknown>>) ?? []) {
        const record: IndexRecord = {
          kind: 'index',
          collection,
          // The driver hands index keys over as a Map (their order is the index).
          key: index.key instanceof Map ? Object.fromEntries(index.key) : (index.key as Record<string, unknown>),
          name: index.name as string | undefined,
          ...(index.partialFilterExpression ? { partialFilterExpression: index.partialFilterExpression as Record<string, unknown> } : {}),
        };
        write(record, `index ${collection} ${JSON.stringify(record.key)} ${JSON.stringify(index.partialFilterExpression ?? null)}`);
      }
      return;
    }
    const shapes = commandShapes(event.databaseName, command);
    if (shapes.length === 0) return;
    // The driver's own frames come first: keep enough to reach ours (async frames included).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 80;
    const stack = new Error().stack;
    Error.stackTraceLimit = limit;
    const caller = callerOf(stack);
    for (const shape of shapes) {
      const key = shapeKey(shape);
      write({ kind: 'query', shape, key, caller }, `${key} ${caller}`);
    }
  });
}
