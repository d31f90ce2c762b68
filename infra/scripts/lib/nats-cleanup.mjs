// A test run's NATS_PREFIX keeps its streams apart from other runs on a shared server (127.0.0.1:4222 lives
// as long as the machine): delete them afterwards so its JetStream store does not grow run after run.
import { connect } from 'nats';

export async function deleteStreamsWithPrefix(url, prefix) {
  if (!prefix) return 0;
  const nc = await connect({ servers: url, timeout: 3000 });
  try {
    const jsm = await nc.jetstreamManager();
    let deleted = 0;
    for await (const info of jsm.streams.list()) {
      if (info.config.name.startsWith(prefix)) {
        await jsm.streams.delete(info.config.name);
        deleted += 1;
      }
    }
    return deleted;
  } finally {
    await nc.close();
  }
}
