import {
  changedFields,
  delayLabel,
  formValuesOf,
  inSequence,
  nextTemplateDefaults,
  parseCampaignId,
  templateFormSchema,
} from './rules';
import type { EmailTemplate } from '../email-campaigns/api';

const template = (over: Partial<EmailTemplate>): EmailTemplate => ({
  id: 1,
  name: 'T',
  subject: 'S',
  from_name: 'Notification',
  html_content: '<p>x</p>',
  type: 'abandoned_cart',
  active: true,
  campaign_id: 1,
  template_order: 1,
  delay_hours: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('delay display (spec §9)', () => {
  it.each([
    [0, 'No delay'],
    [1, '1 hour'],
    [2, '2 hours'],
    [23, '23 hours'],
    [1.5, '1.5 hours'],
    [24, '1 day'],
    [25, '1 day 1 hour'],
    [26, '1 day 2 hours'],
    [48, '2 days'],
    [50, '2 days 2 hours'],
    [72.5, '3 days 0.5 hours'],
    [168, '7 days'],
  ])('%s h → %s', (hours, label) => {
    expect(delayLabel(hours)).toBe(label);
  });

  it('treats missing or negative values as no delay', () => {
    expect(delayLabel(undefined)).toBe('No delay');
    expect(delayLabel(null)).toBe('No delay');
    expect(delayLabel(-3)).toBe('No delay');
    expect(delayLabel(Number.NaN)).toBe('No delay');
  });
});

describe('campaign id of the route (spec §2)', () => {
  it('parses an integer the way parseInt does', () => {
    expect(parseCampaignId('7')).toBe(7);
    expect(parseCampaignId('12abc')).toBe(12);
    expect(parseCampaignId(' 3')).toBe(3);
    expect(parseCampaignId('4.9')).toBe(4);
  });

  it('gives null (loads disabled) for 0, negatives and non-numbers', () => {
    for (const param of ['0', '-1', '-0', 'abc', '', undefined, 'NaN', '  ']) expect(parseCampaignId(param)).toBeNull();
  });
});

describe('new template defaults (spec §9)', () => {
  it('first template: order 1, no delay', () => {
    expect(nextTemplateDefaults([])).toEqual({ template_order: 1, delay_hours: 0 });
    expect(nextTemplateDefaults(undefined)).toEqual({ template_order: 1, delay_hours: 0 });
  });

  it('later ones: highest order + 1 and 24 hours', () => {
    const list = [
      template({ id: 1, template_order: 1 }),
      template({ id: 2, template_order: 5 }),
      template({ id: 3, template_order: 2 }),
    ];
    expect(nextTemplateDefaults(list)).toEqual({ template_order: 6, delay_hours: 24 });
  });

  it("a new form takes them, with 'Notification' as the from name", () => {
    expect(formValuesOf(null, [template({ template_order: 3 })])).toMatchObject({
      from_name: 'Notification',
      template_order: 4,
      delay_hours: 24,
      active: true,
    });
  });
});

describe('campaign template form (spec §5)', () => {
  const valid = {
    name: 'A',
    subject: 'B',
    from_name: 'C',
    html_content: '<p>Hi</p>',
    template_order: 1,
    delay_hours: 0,
    active: true,
  };
  const firstError = async (values: object) => {
    try {
      await templateFormSchema.validate(values);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('has the spec messages, also for fields formik hands over as undefined', async () => {
    expect(await firstError({ ...valid, subject: undefined })).toBe('Subject is required');
    expect(await firstError({ ...valid, from_name: undefined })).toBe('From name is required');
    expect(await firstError(valid)).toBeNull();
    expect(await firstError({ ...valid, name: '  ' })).toBe('Template name is required');
    expect(await firstError({ ...valid, subject: '' })).toBe('Subject is required');
    expect(await firstError({ ...valid, from_name: '' })).toBe('From name is required');
    expect(await firstError({ ...valid, html_content: '<p></p>' })).toBe('Email content is required');
    expect(await firstError({ ...valid, delay_hours: -1 })).toBe('Delay must be a number of hours of at least 0');
    expect(await firstError({ ...valid, delay_hours: '' })).toBe('Delay must be a number of hours of at least 0');
    expect(await firstError({ ...valid, template_order: 0 })).toBe(
      'Template order must be a whole number of at least 1',
    );
    expect(await firstError({ ...valid, template_order: 1.5 })).toBe(
      'Template order must be a whole number of at least 1',
    );
  });

  it('content made of an image only is content', async () => {
    expect(await firstError({ ...valid, html_content: '<img src="https://x.test/a.png">' })).toBeNull();
  });
});

it('shows templates in sequence order', () => {
  const list = [
    template({ id: 3, template_order: 2 }),
    template({ id: 1, template_order: 1 }),
    template({ id: 2, template_order: 2 }),
  ];
  expect(inSequence(list).map((t) => t.id)).toEqual([1, 2, 3]);
});

it('PATCH sends the changed fields only', () => {
  expect(changedFields({ name: 'a', subject: 'b', active: true }, { name: 'a', subject: 'old', active: true })).toEqual(
    { subject: 'b' },
  );
});
