import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';

interface ClickTrackingDoc {
  _id: string;
  /** Recovery links go through our redirect (`/r/<token>`), and its clicks are the ones counted. */
  our_link: boolean;
  updated_at: Date;
}

/**
 * The operator's switch, one per service (its own database): off by default, so messages carry the recovery link as
 * given and email counts Resend's click events.
 */
export class ClickTrackingSetting {
  private readonly coll: Collection<ClickTrackingDoc>;

  constructor(conn: Connection) {
    this.coll = conn.collection<ClickTrackingDoc>('click_tracking');
  }

  async ourLink(): Promise<boolean> {
    const doc = await this.coll.findOne({ _id: 'click_tracking' }, { projection: { our_link: 1 } });
    return doc?.our_link === true;
  }

  async setOurLink(on: boolean, at = new Date()): Promise<boolean> {
    await this.coll.updateOne({ _id: 'click_tracking' }, { $set: { our_link: on, updated_at: at } }, { upsert: true });
    return on;
  }
}
