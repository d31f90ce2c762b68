/**
 * A burst that fails part way (here the sender's pace document cannot be read, as when a pacing race is lost too
 * often) gives its contacts back to be tried again in seconds, not when its 5-minute lease runs out; the text then
 * goes out once.
 */
import { createFunnel, postContact, startSendingSms, waitFor, type SendingSms } from '../test/helpers';

jest.setTimeout(120_000);

const SENDER = '+15005550006';
let sms: SendingSms;
// The default lease (5 minutes): a contact left under it would not come back within this test.
beforeAll(async () => void (sms = await startSendingSms('bursterror', { SMS_DUE_SCAN_MS: '200' })));
afterAll(() => sms?.stop());

it('gives the contacts of a failed burst back for a retry in seconds, and sends the text once', async () => {
  await createFunnel(sms.svc.url, 'burst-error-funnel', [{ message: 'Back soon {first_name}?' }], 1);
  const pace = sms.mongo.db(sms.t.db).collection<{ _id: string; next_at: unknown }>('sms_send_pace');
  await pace.deleteOne({ _id: SENDER });
  await pace.insertOne({ _id: SENDER, next_at: 'not a date' });
  const phone = '+15552110001';
  const created = await postContact(sms.svc.url, 'burst-error-funnel', 'be-1', phone);
  expect(created.status).toBe(200);
  const ref = (created.body as { id: number }).id;
  const contacts = sms.mongo.db(sms.t.db).collection<{ id: number; next_at: Date | null; lease_id?: string }>('sms_contacts');
  // The step was taken (a lease id written, next_at moved to the lease's end, 5 minutes ahead) and failed at the
  // pace: the contact is given back, due again within seconds.
  await waitFor(async () => {
    const c = await contacts.findOne({ id: ref });
    return c?.lease_id && c.next_at && c.next_at.getTime() > Date.now() && c.next_at.getTime() < Date.now() + 30_000;
  }, 30_000);
  expect(sms.twilio.messages.filter((m) => m.to === phone)).toEqual([]);

  await pace.deleteOne({ _id: SENDER });
  await waitFor(async () => sms.twilio.messages.some((m) => m.to === phone), 40_000);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body)).toEqual(['Back soon Jane?']);
});
