import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';

interface SettingDoc {
  _id: string;
  value: unknown;
  updated_at: Date;
}

const REQUIRE_SIGNED = 'requireSignedDeliveries';

/** svc-sms's own "Require signed deliveries" for /api/sms/webhook (each side's intake is deployed and set alone). */
export class WebhookSigningSettings {
  private readonly coll: Collection<SettingDoc>;

  constructor(
    conn: Connection,
    /** Told after a change, so this instance's webhook path sees it at once. */
    private readonly onChange: () => void,
  ) {
    this.coll = conn.db!.collection<SettingDoc>('sms_settings');
  }

  async requireSigned(): Promise<boolean> {
    return (await this.coll.findOne({ _id: REQUIRE_SIGNED }))?.value === true;
  }

  async setRequireSigned(on: boolean): Promise<boolean> {
    await this.coll.updateOne(
      { _id: REQUIRE_SIGNED },
      { $set: { value: on, updated_at: new Date() } },
      { upsert: true },
    );
    this.onChange();
    return on;
  }
}
