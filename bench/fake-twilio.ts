// The fake Twilio of packages/testing as a process of its own for the benchmarks, which are
// plain .mjs: started with `node --import tsx` and an IPC channel. It announces { url, accountSid, authToken }; on
// { type: 'messages', since } it answers with the messages recorded from index `since` on (to, body, at).
import { startFakeTwilio } from '@act/testing/fake-twilio';

async function main() {
  const fake = await startFakeTwilio();
  process.send!({ type: 'ready', url: fake.url, accountSid: fake.accountSid, authToken: fake.authToken });
  process.on('message', (m: { type: string; since?: number }) => {
    if (m.type === 'messages') {
      const rows = fake.messages.slice(m.since ?? 0).map((x) => ({ to: x.to, body: x.body, at: x.at }));
      process.send!({ type: 'messages', total: fake.messages.length, rows });
    }
  });
  process.on('disconnect', () => void fake.stop().finally(() => process.exit(0)));
}
void main();
