import {
  appendImage,
  formatLinkHref,
  isAllowedImageUrl,
  isAllowedLinkUrl,
  isBlankHtml,
  LINK_MESSAGES,
  linkHrefError,
  schemeOf,
} from './urls';

describe('link URLs (spec §5: http, https, mailto, tel)', () => {
  it.each([
    'https://example.com',
    'http://example.com/path?q=1#x',
    'HTTPS://EXAMPLE.COM',
    'mailto:someone@example.com',
    'tel:+15551234567',
    '{{recoveryUrl}}',
    '{{ recoveryUrl }}',
  ])('allows %s', (url) => expect(isAllowedLinkUrl(url)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\nscript:alert(1)',
    'java\tscript:alert(1)',
    '\u0001javascript:alert(1)',
    'vbscript:msgbox',
    'data:text/html,<script>alert(1)</script>',
    'data:image/png;base64,AAAA',
    'ftp://example.com',
    'file:///etc/passwd',
    '/relative/path',
    '//evil.example',
    'example.com',
    'https://',
    'mailto:',
    '{{contactEmail}}',
    '',
    null,
    undefined,
  ])('refuses %p', (url) => expect(isAllowedLinkUrl(url as string)).toBe(false));
});

describe('image URLs (spec §5: http, https, data)', () => {
  it.each([
    'https://cdn.example.com/a.png',
    'http://example.com/a.gif',
    'data:image/png;base64,iVBORw0KGgo=',
    'data:image/svg+xml;charset=utf-8,%3Csvg%3E',
    'DATA:IMAGE/JPEG;base64,/9j/',
  ])('allows %s', (url) => expect(isAllowedImageUrl(url)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'data:,hello',
    'mailto:a@b.c',
    'tel:123',
    'blob:https://example.com/uuid',
    '/img.png',
    'img.png',
    '',
    null,
  ])('refuses %p', (url) => expect(isAllowedImageUrl(url as string)).toBe(false));
});

it('reads schemes like a browser does', () => {
  expect(schemeOf('  HTTPS://x')).toBe('https');
  expect(schemeOf('ja\r\nvascript:x')).toBe('javascript');
  expect(schemeOf('no-scheme')).toBeNull();
});

it('formats a typed link: https by default, mailto for an address, variables kept', () => {
  expect(formatLinkHref('example.com')).toBe('https://example.com');
  expect(formatLinkHref(' https://example.com ')).toBe('https://example.com');
  expect(formatLinkHref('someone@example.com')).toBe('mailto:someone@example.com');
  expect(formatLinkHref('tel:123')).toBe('tel:123');
  expect(formatLinkHref('{{recoveryUrl}}')).toBe('{{recoveryUrl}}');
  expect(isAllowedLinkUrl(formatLinkHref('javascript:alert(1)'))).toBe(false);
});

it('says what is wrong with a typed link instead of saving an empty or mangled href', () => {
  for (const bad of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,x',
    'ftp://files.example.com/a',
    'java\nscript:x',
  ])
    expect([bad, linkHrefError(bad)]).toEqual([bad, LINK_MESSAGES.scheme]);
  for (const bad of ['not a url', 'https://', 'https://exa mple.com', 'https://not%20a%20url', 'mailto:'])
    expect([bad, linkHrefError(bad)]).toEqual([bad, LINK_MESSAGES.invalid]);
  expect(linkHrefError('  ')).toBe(LINK_MESSAGES.required);
  for (const good of [
    'shop.example.com/cart',
    'https://example.com',
    'http://localhost:8080/x',
    'https://[::1]/',
    'https://bücher.example/',
    'someone@example.com',
    'tel:+1555',
    '{{recoveryUrl}}',
  ])
    expect([good, linkHrefError(good)]).toEqual([good, null]);
});

describe('Insert Image appends at the end (spec §2)', () => {
  it('puts the <img src> after all content', () => {
    const html = '<h1>Hi</h1><p>Body <strong>bold</strong></p>';
    const next = appendImage(html, 'https://example.com/a.png');
    expect(next.startsWith(html)).toBe(true);
    expect(next.endsWith('<img src="https://example.com/a.png" alt="">')).toBe(true);
  });

  it('escapes the URL inside the attribute', () => {
    expect(appendImage('', 'https://x.test/a.png?a=1&b="2"><script>')).toBe(
      '<img src="https://x.test/a.png?a=1&amp;b=&quot;2&quot;&gt;&lt;script&gt;" alt="">',
    );
  });
});

it('knows blank editor content', () => {
  expect(isBlankHtml('')).toBe(true);
  expect(isBlankHtml('<p></p>')).toBe(true);
  expect(isBlankHtml('<p>&nbsp; </p><p><br></p>')).toBe(true);
  expect(isBlankHtml('<p>x</p>')).toBe(false);
  expect(isBlankHtml('<p><img src="https://x.test/a.png"></p>')).toBe(false);
});
