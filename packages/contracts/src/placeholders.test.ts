import { canonicalPlaceholder, placeholderToken, replacePlaceholders, usesPlaceholder } from './placeholders';
import { renderTemplateVariables, usesCheckoutLink as emailUsesCheckoutLink } from './email-api';
import { renderSmsTemplate, usesCheckoutLink as smsUsesCheckoutLink } from './sms-api';

describe('placeholder spellings', () => {
  it('compares names in one form whatever the spelling', () => {
    for (const name of ['firstName', 'first_name', 'FirstName', 'FIRST_NAME'.toLowerCase()])
      expect(canonicalPlaceholder(name)).toBe('first_name');
    expect(canonicalPlaceholder('contactEmail')).toBe('contact_email');
    expect(placeholderToken('first_name')).toBe('{{firstName}}');
    expect(placeholderToken('checkout_url')).toBe('{{checkoutUrl}}');
  });

  it('replaces every spelling and leaves unknown names, CSS and lone braces as written', () => {
    const text = 'Hi {{firstName}} / {first_name} / {{ first_name }} / {firstName}! {coupon} a{color:red} {{}} {';
    expect(replacePlaceholders(text, (n) => (n === 'first_name' ? 'Ann' : undefined))).toBe(
      'Hi Ann / Ann / Ann / Ann! {coupon} a{color:red} {{}} {',
    );
    expect(usesPlaceholder('Go {checkoutUrl}', ['checkout_url'])).toBe(true);
    expect(usesPlaceholder('Go {coupon}', ['checkout_url'])).toBe(false);
  });

  it('the email side renders the SMS spelling and the first name (a neutral word when there is none)', () => {
    const values = { contactEmail: 'a@example.com', recoveryUrl: 'https://shop.example.com/c', firstName: 'Ann' };
    expect(
      renderTemplateVariables('<p>Hi {first_name} ({contact_email})</p><a href="{checkout_url}">x</a>', values),
    ).toBe('<p>Hi Ann (a@example.com)</p><a href="https://shop.example.com/c">x</a>');
    expect(renderTemplateVariables('Hi {{firstName}}', { firstName: '<b>' })).toBe('Hi &lt;b&gt;');
    expect(renderTemplateVariables('Hi {{firstName}}, {{recoveryUrl}}', { contactEmail: 'a@example.com' })).toBe(
      'Hi there, {{recoveryUrl}}',
    );
    expect(emailUsesCheckoutLink('<a href="{checkout_url}">')).toBe(true);
  });

  it('the SMS side renders the email spelling', () => {
    expect(
      renderSmsTemplate('Hi {{firstName}}, {{checkoutUrl}} {{recoveryUrl}}', {
        first_name: 'Ann',
        checkout_url: 'https://s.example/c',
      }),
    ).toBe('Hi Ann, https://s.example/c https://s.example/c');
    expect(renderSmsTemplate('Hi {firstName}!', {})).toBe('Hi there!');
    expect(smsUsesCheckoutLink('Back: {{recoveryUrl}}')).toBe(true);
  });
});
