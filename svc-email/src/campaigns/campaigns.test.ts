import { testUser } from '@act/service-kit/testing';
import { DEFAULT_TEMPLATE_HTML } from '@act/contracts/src/email-api';
import { dropDb, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

describe('campaigns and templates', () => {
  let email: EmailUnderTest;
  beforeAll(async () => {
    email = await startEmail('campaigns');
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
  });

  const createCampaign = async (body: Record<string, unknown>) => {
    const r = await email.api('POST', '/api/email/campaigns', { body });
    expect(r.status).toBe(201);
    return r.body as { id: number; name: string };
  };
  const createTemplate = async (body: Record<string, unknown>) => {
    const r = await email.api('POST', '/api/resend/templates', { body });
    expect(r.status).toBe(201);
    return r.body as Record<string, unknown> & { id: number; html_content: string; template_order: number };
  };

  it('creates, reads, lists, updates and deletes a campaign with the spec defaults', async () => {
    const created = await createCampaign({ name: '  Spring  ' });
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Spring',
      description: null,
      type: 'abandoned_cart',
      active: true,
      created_at: expect.any(String),
      on_cart_change: 'continue',
      priority: 0,
    });
    expect(Number.isInteger(created.id)).toBe(true);
    expect((await email.api('GET', `/api/email/campaigns/${created.id}`)).body).toEqual(created);

    const second = await createCampaign({ name: 'Winter', description: 'Cold carts', type: 'winback', active: false });
    const list = (await email.api('GET', '/api/email/campaigns')).body as { id: number }[];
    expect(list.map((c) => c.id)).toEqual([second.id, created.id]);

    const put = await email.api('PUT', `/api/email/campaigns/${created.id}`, {
      body: { name: 'Spring sale', description: 'd', type: 'abandoned_cart', active: false, on_cart_change: 'restart', priority: 7 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: created.id, name: 'Spring sale', description: 'd', active: false, on_cart_change: 'restart', priority: 7 });
    // A field left out keeps its value.
    const put2 = await email.api('PUT', `/api/email/campaigns/${created.id}`, { body: { name: 'Spring sale 2' } });
    expect(put2.body).toMatchObject({ name: 'Spring sale 2', description: 'd', active: false, on_cart_change: 'restart', priority: 7 });
    expect((await email.api('PUT', `/api/email/campaigns/${created.id}`, { body: { name: 'x', on_cart_change: 'later' } })).status).toBe(400);

    expect((await email.api('DELETE', `/api/email/campaigns/${second.id}`)).body).toEqual({
      success: true,
      message: 'Campaign deleted',
    });
    expect((await email.api('GET', `/api/email/campaigns/${second.id}`)).status).toBe(404);
    expect((await email.api('DELETE', `/api/email/campaigns/${second.id}`)).status).toBe(404);
  });

  it('validates campaigns: name required, types checked, ids numeric, signed-in only', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: { $gt: '' } }]) {
      const r = await email.api('POST', '/api/email/campaigns', { body });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'Campaign name is required' });
    }
    expect((await email.api('POST', '/api/email/campaigns', { body: { name: 'x', active: 'yes' } })).body).toEqual({
      error: 'active must be true or false',
    });
    expect((await email.api('PUT', '/api/email/campaigns/1', { body: { name: '' } })).body).toEqual({
      error: 'Campaign name is required',
    });
    expect((await email.api('GET', '/api/email/campaigns/abc')).status).toBe(400);
    expect((await email.api('GET', '/api/email/campaigns/0')).status).toBe(400);
    expect((await email.api('GET', '/api/email/campaigns', { user: null })).status).toBe(401);
    expect(
      (await email.api('POST', '/api/email/campaigns', { body: { name: 'by a user' }, user: testUser })).status,
    ).toBe(201);
  });

  it('standalone templates: defaults, full fields in the list, patch, delete, both forms of messages', async () => {
    const t = await createTemplate({
      name: 'Legacy',
      html_content: '<p>Hi {{contactEmail}}</p><script>alert(1)</script>',
    });
    expect(t).toEqual({
      id: expect.any(Number),
      name: 'Legacy',
      subject: 'Your cart is waiting!',
      from_name: 'Cart Reminders',
      html_content: '<p>Hi {{contactEmail}}</p>',
      type: 'abandoned_cart',
      active: true,
      campaign_id: null,
      template_order: 1,
      delay_hours: 0,
      created_at: expect.any(String),
    });
    const all = (await email.api('GET', '/api/resend/templates')).body as Record<string, unknown>[];
    expect(all.find((x) => x.id === t.id)).toEqual(t);

    const patched = await email.api('PATCH', `/api/resend/templates/${t.id}`, {
      body: { subject: 'New subject', active: false, html_content: '<h2 onclick="x()">Hello</h2>' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: t.id,
      name: 'Legacy',
      subject: 'New subject',
      active: false,
      html_content: '<h2>Hello</h2>',
    });

    const bad = async (
      body: Record<string, unknown>,
      error: string,
      path = '/api/resend/templates',
      method = 'POST',
    ) => {
      const r = await email.api(method, path, { body });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error });
    };
    await bad({ html_content: 'x' }, 'Template name is required');
    await bad({ name: 'x', subject: '', html_content: 'x' }, 'Subject line is required');
    await bad({ name: 'x', from_name: ' ', html_content: 'x' }, 'From name is required');
    await bad({ name: 'x' }, 'HTML content is required');
    await bad({ name: 'x', html_content: '<script>only()</script>' }, 'HTML content is required');
    await bad({ name: 'x', html_content: { $ne: 1 } }, 'HTML content is required');
    await bad({ subject: '' }, 'Subject line is required', `/api/resend/templates/${t.id}`, 'PATCH');
    await bad({ name: null }, 'Template name is required', `/api/resend/templates/${t.id}`, 'PATCH');

    expect((await email.api('DELETE', `/api/resend/templates/${t.id}`)).body).toEqual({
      success: true,
      message: 'Template deleted',
    });
    expect((await email.api('DELETE', `/api/resend/templates/${t.id}`)).status).toBe(404);
    expect((await email.api('PATCH', `/api/resend/templates/${t.id}`, { body: { name: 'x' } })).status).toBe(404);
  });

  it('campaign templates: order 1 then highest + 1, delay 0 then 24, type from the campaign, campaign messages, sorted list', async () => {
    const c = await createCampaign({ name: 'Sequence', type: 'winback' });
    const first = await createTemplate({
      name: 'First',
      subject: 'S1',
      from_name: 'Notification',
      html_content: DEFAULT_TEMPLATE_HTML,
      campaign_id: c.id,
    });
    expect(first).toMatchObject({
      campaign_id: c.id,
      template_order: 1,
      delay_hours: 0,
      type: 'winback',
      from_name: 'Notification',
    });
    expect(first.html_content).toContain('href="{{recoveryUrl}}"');
    expect(first.html_content).toContain('Complete Your Purchase');
    const second = await createTemplate({ name: 'Second', html_content: '<p>2</p>', campaign_id: c.id });
    expect(second).toMatchObject({
      template_order: 2,
      delay_hours: 24,
      from_name: 'Notification',
      subject: 'Your cart is waiting!',
    });
    const tenth = await createTemplate({
      name: 'Tenth',
      html_content: '<p>10</p>',
      campaign_id: c.id,
      template_order: 10,
      delay_hours: 0.5,
      type: 'custom',
    });
    expect(tenth).toMatchObject({ template_order: 10, delay_hours: 0.5, type: 'custom' });
    const next = await createTemplate({ name: 'After tenth', html_content: '<p>11</p>', campaign_id: c.id });
    expect(next.template_order).toBe(11);
    const early = await createTemplate({
      name: 'Early',
      html_content: '<p>0</p>',
      campaign_id: c.id,
      template_order: 1,
      delay_hours: 3,
    });

    const list = (await email.api('GET', `/api/resend/templates/campaign/${c.id}`)).body as {
      id: number;
      template_order: number;
    }[];
    expect(list.map((t) => t.id)).toEqual([first.id, early.id, second.id, tenth.id, next.id]);

    const bad = async (body: Record<string, unknown>, error: string) => {
      const r = await email.api('POST', '/api/resend/templates', { body: { campaign_id: c.id, ...body } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error });
    };
    await bad({ name: '', html_content: 'x' }, 'Template name is required');
    await bad({ name: 'x', subject: '', html_content: 'x' }, 'Subject is required');
    await bad({ name: 'x', from_name: '', html_content: 'x' }, 'From name is required');
    await bad({ name: 'x', html_content: '' }, 'Email content is required');
    await bad(
      { name: 'x', html_content: 'x', template_order: 0 },
      'Template order must be a whole number of at least 1',
    );
    await bad(
      { name: 'x', html_content: 'x', template_order: 1.5 },
      'Template order must be a whole number of at least 1',
    );
    await bad(
      { name: 'x', html_content: 'x', template_order: '2' },
      'Template order must be a whole number of at least 1',
    );
    await bad({ name: 'x', html_content: 'x', delay_hours: -1 }, 'Delay must be a number of hours of at least 0');
    await bad({ name: 'x', html_content: 'x', campaign_id: 99999 }, 'Campaign not found');
    const patch = await email.api('PATCH', `/api/resend/templates/${second.id}`, { body: { html_content: '' } });
    expect(patch.body).toEqual({ error: 'Email content is required' });

    expect((await email.api('GET', '/api/resend/templates/campaign/99999')).status).toBe(404);
    expect((await email.api('GET', '/api/resend/templates/campaign/abc')).status).toBe(400);
  });

  it('deleting a campaign orphans its templates (campaign_id kept)', async () => {
    const c = await createCampaign({ name: 'Doomed' });
    const t = await createTemplate({ name: 'Orphan', html_content: '<p>o</p>', campaign_id: c.id });
    expect((await email.api('DELETE', `/api/email/campaigns/${c.id}`)).status).toBe(200);
    const all = (await email.api('GET', '/api/resend/templates')).body as { id: number; campaign_id: number | null }[];
    expect(all.find((x) => x.id === t.id)?.campaign_id).toBe(c.id);
    expect((await email.api('GET', `/api/resend/templates/campaign/${c.id}`)).status).toBe(404);
  });
});
