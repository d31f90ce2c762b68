import mongoose, { type Connection } from 'mongoose';

/** One message's recovery link as sent through our redirect (`<PUBLIC_URL>/r/<token>`), with whose it is and its clicks. */
export interface TrackedLinkDoc {
  /** Random and unguessable; its first letter names the service that answers it (`e` email, `s` SMS). */
  token: string;
  contact_ref: number;
  /** The sender's contact id (the timeline and erase find the person by it). */
  contact_id: string;
  campaign_id: number | null;
  /** The step: the template sent. One link per (contact, template): a retried send reuses it. */
  template_id: number;
  step: number | null;
  /** The contact's variant of the step (campaign experiments); null outside an experiment. */
  variant: string | null;
  /** Where the click goes: the recovery link as the message would have carried it, the discount code applied. */
  target: string;
  created_at: Date;
  /** The first click (the flag results read); later clicks only add to `clicks`. */
  clicked_at: Date | null;
  last_clicked_at: Date | null;
  clicks: number;
}

const schema = new mongoose.Schema<TrackedLinkDoc>(
  {
    token: { type: String, required: true },
    contact_ref: { type: Number, required: true },
    contact_id: { type: String, required: true },
    campaign_id: { type: Number, default: null },
    template_id: { type: Number, required: true },
    step: { type: Number, default: null },
    variant: { type: String, default: null },
    target: { type: String, required: true },
    created_at: { type: Date, required: true },
    clicked_at: { type: Date, default: null },
    last_clicked_at: { type: Date, default: null },
    clicks: { type: Number, default: 0 },
  },
  { versionKey: false, collection: 'tracked_links' },
);
// The click's one lookup.
schema.index({ token: 1 }, { unique: true });
// One link per message: the send (and an interrupted send's check) finds it again by its step.
schema.index({ contact_ref: 1, template_id: 1 }, { unique: true });
// A step's clicks per variant (experiment results).
schema.index({ template_id: 1, variant: 1 });
// The contact page's "clicked" entries (a few per contact: one per message clicked).
schema.index({ contact_ref: 1, clicked_at: -1 });

export function trackedLinkModel(conn: Connection) {
  return (conn.models.TrackedLink as mongoose.Model<TrackedLinkDoc>) ?? conn.model<TrackedLinkDoc>('TrackedLink', schema);
}
