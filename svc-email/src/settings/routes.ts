import Router from '@koa/router';
import { auditChange, requireAdmin, requireUser, validateBody } from '@act/service-kit';
import { webhookSigningSettingsSchema, type WebhookSigningSettings } from '@act/contracts/src/webhook-signing';
import {
  reminderDelayRequestSchema,
  type ReminderDelayResponse,
  type SetReminderDelayResponse,
} from '@act/contracts/src/email-api';
import type { SettingsService } from './service';
import type { TimingSettingsService } from './timing';
import { emailTimingSettingsSchema } from '@act/contracts/src/timing';

export function settingsRouter(settings: SettingsService): Router {
  const router = new Router({ prefix: '/api/settings' });
  router.use(requireUser());
  router.get('/reminder-delay', async (ctx) => {
    const body: ReminderDelayResponse = { reminderDelay: await settings.getReminderDelay() };
    ctx.body = body;
  });
  router.post('/reminder-delay', async (ctx) => {
    const { reminderDelay } = await validateBody(ctx, reminderDelayRequestSchema);
    const previous = await settings.getReminderDelay();
    const saved = await settings.setReminderDelay(reminderDelay);
    auditChange(ctx, { reminderDelay: previous }, { reminderDelay: saved }, { target_kind: 'setting', target_id: 'reminder-delay' });
    const body: SetReminderDelayResponse = {
      success: true,
      reminderDelay: saved,
      message: `Reminder delay set to ${saved} minutes.`,
    };
    ctx.body = body;
  });
  return router;
}

/** GET (staff) / PUT (admin) /api/webhook-signing: "Require signed deliveries" for the email side's webhook. */
export function webhookSigningRouter(settings: SettingsService): Router {
  const router = new Router({ prefix: '/api/webhook-signing' });
  router.get('/', requireUser(), async (ctx) => {
    const body: WebhookSigningSettings = { require_signed: await settings.getRequireSigned() };
    ctx.body = body;
  });
  router.put('/', requireAdmin(), async (ctx) => {
    const { require_signed } = await validateBody(ctx, webhookSigningSettingsSchema);
    const previous = await settings.getRequireSigned();
    const body: WebhookSigningSettings = { require_signed: await settings.setRequireSigned(require_signed) };
    auditChange(ctx, { require_signed: previous }, body, { target_kind: 'setting', target_id: 'webhook-signing' });
    ctx.body = body;
  });
  return router;
}

/**
 * GET (staff) / PUT (admin) /api/settings/timing: email's quiet hours and the account's frequency cap (the SMS side
 * gets the same cap over NATS).
 */
export function timingSettingsRouter(timing: TimingSettingsService): Router {
  const router = new Router({ prefix: '/api/settings/timing' });
  router.get('/', requireUser(), async (ctx) => {
    ctx.body = await timing.get();
  });
  router.put('/', requireAdmin(), async (ctx) => {
    const input = await validateBody(ctx, emailTimingSettingsSchema);
    const before = await timing.get();
    const after = await timing.save(input);
    auditChange(ctx, before, after, { target_kind: 'setting', target_id: 'timing' });
    ctx.body = after;
  });
  return router;
}
