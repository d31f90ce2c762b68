import { legacyTemplateSchema, legacyValuesOf, standaloneTemplates } from './templateForm';
import type { EmailTemplate } from '../email-campaigns/api';

const firstError = async (values: object) => {
  try {
    await legacyTemplateSchema.validate(values);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('standalone template form (spec §5)', () => {
  it('starts from the defaults and the default template', () => {
    const values = legacyValuesOf(null);
    expect(values).toMatchObject({ subject: 'Your cart is waiting!', from_name: 'Cart Reminders', active: true });
    expect(values.html_content).toContain('{{contactEmail}}');
    expect(values.html_content).toContain('href="{{recoveryUrl}}"');
    expect(values.html_content).toContain('Complete Your Purchase');
  });

  it('has the standalone messages', async () => {
    const valid = legacyValuesOf(null);
    expect(await firstError({ ...valid, name: 'A' })).toBeNull();
    expect(await firstError({ ...valid, name: undefined })).toBe('Template name is required');
    expect(await firstError({ ...valid, name: 'A', subject: undefined })).toBe('Subject line is required');
    expect(await firstError({ ...valid, name: 'A', from_name: '  ' })).toBe('From name is required');
    expect(await firstError({ ...valid, name: 'A', html_content: '<p></p>' })).toBe('HTML content is required');
  });
});

it('lists only templates that belong to no campaign', () => {
  const t = (id: number, campaign_id: number | null) => ({ id, campaign_id }) as EmailTemplate;
  expect(standaloneTemplates([t(1, null), t(2, 4), t(3, null)])?.map((x) => x.id)).toEqual([1, 3]);
  expect(standaloneTemplates(undefined)).toBeUndefined();
});

it("also lists the orphans of a deleted campaign, once the campaigns are known", () => {
  const t = (id: number, campaign_id: number | null) => ({ id, campaign_id }) as EmailTemplate;
  const list = [t(1, null), t(2, 4), t(3, 9)];
  expect(standaloneTemplates(list, new Set([4]))?.map((x) => x.id)).toEqual([1, 3]);
  expect(standaloneTemplates(list, new Set([4, 9]))?.map((x) => x.id)).toEqual([1]);
});
