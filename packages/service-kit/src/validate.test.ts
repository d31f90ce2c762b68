import * as yup from 'yup';
import { BadRequestError } from './errors';
import { validate } from './validate';

const schema = yup.object({
  username: yup.string().required(),
  delay: yup.number().min(1),
  active: yup.boolean(),
  at: yup.date().nullable(),
  contact: yup.object({ email: yup.string().email() }),
  tags: yup.array(yup.string()),
});

const refused = async (value: unknown) => {
  const err = await validate(schema, value).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BadRequestError);
  return (err as BadRequestError).message;
};

describe('validate against crafted JSON', () => {
  it('refuses objects with a non-function toString / valueOf where a scalar is wanted, as a 400 naming the field', async () => {
    // The field's own type message wins, as for any other wrong type.
    const custom = yup.object({ delay: yup.number().typeError('Delay must be a number of minutes') });
    await expect(validate(custom, { delay: { valueOf: 1, toString: 1 } })).rejects.toThrow('Delay must be a number of minutes');
    expect(await refused({ username: { toString: 1 } })).toBe('username must be a string');
    expect(await refused({ username: 'a', delay: { valueOf: 1 } })).toBe('delay must be a number');
    expect(await refused({ username: 'a', active: { toString: 'x', valueOf: 'y' } })).toBe('active must be a boolean');
    expect(await refused({ username: 'a', at: { toString: null } })).toMatch(/^at must be a date/);
    expect(await refused({ username: ['a'] })).toBe('username must be a string');
    expect(await refused({ username: 'a', contact: { email: { toString: 1 } } })).toBe('contact.email must be a string');
    expect(await refused({ username: 'a', tags: [{ toString: 1 }] })).toBe('tags[0] must be a string');
    expect(await refused({ username: 'a', tags: { 0: 'x' } })).toBe('tags must be a array');
    expect(await refused({ username: 'a', contact: 'x' })).toBe('contact must be a object');
  });

  it('still accepts what it accepted: scalars, nulls, casts from strings, unknown keys stripped', async () => {
    await expect(validate(schema, { username: 'a', delay: '5', active: true, at: null, junk: { toString: 1 } })).resolves.toEqual({
      username: 'a',
      delay: 5,
      active: true,
      at: null,
      contact: {}, // yup's default for an object schema
    });
  });
});
