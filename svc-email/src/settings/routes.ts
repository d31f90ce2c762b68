import Router from '@koa/router';
import { requireUser, validateBody } from '@act/service-kit';
import { reminderDelayRequestSchema, type ReminderDelayResponse, type SetReminderDelayResponse } from '@act/contracts/src/email-api';
import type { SettingsService } from './service';

export function settingsRouter(settings: SettingsService): Router {
  const router = new Router({ prefix: '/api/settings' });
  router.use(requireUser());
  router.get('/reminder-delay', async (ctx) => {
    const body: ReminderDelayResponse = { reminderDelay: await settings.getReminderDelay() };
    ctx.body = body;
  });
  router.post('/reminder-delay', async (ctx) => {
    const { reminderDelay } = await validateBody(ctx, reminderDelayRequestSchema);
    const saved = await settings.setReminderDelay(reminderDelay);
    const body: SetReminderDelayResponse = { success: true, reminderDelay: saved, message: `Reminder delay set to ${saved} minutes.` };
    ctx.body = body;
  });
  return router;
}
