import { DEFAULT_TEMPLATE_HTML, renderTemplateVariables } from '@act/contracts/src/email-api';
import { sanitizeTemplateHtml } from './sanitize';

describe('template HTML sanitiser', () => {
  it('keeps the editor output: headings 1–6, bold, lists, indent styles, links, images', () => {
    const html =
      '<h1>a</h1><h2>b</h2><h3>c</h3><h4>d</h4><h5>e</h5><h6>f</h6><p style="margin-left: 4em"><strong>b</strong> <em>i</em> <u>u</u> <s>s</s></p>' +
      '<ul><li>x</li></ul><ol><li>y</li></ol><blockquote>q</blockquote>' +
      '<p><a href="https://example.com/x?a=1&amp;b=2">web</a> <a href="mailto:a@b.co">mail</a> <a href="tel:+15550001111">call</a></p>' +
      '<img src="https://example.com/i.png" alt="i"><img src="data:image/png;base64,iVBORw0KGgo=">';
    expect(sanitizeTemplateHtml(html)).toBe(
      '<h1>a</h1><h2>b</h2><h3>c</h3><h4>d</h4><h5>e</h5><h6>f</h6><p style="margin-left:4em"><strong>b</strong> <em>i</em> <u>u</u> <s>s</s></p>' +
        '<ul><li>x</li></ul><ol><li>y</li></ol><blockquote>q</blockquote>' +
        '<p><a href="https://example.com/x?a=1&amp;b=2">web</a> <a href="mailto:a@b.co">mail</a> <a href="tel:+15550001111">call</a></p>' +
        '<img src="https://example.com/i.png" alt="i" /><img src="data:image/png;base64,iVBORw0KGgo=" />',
    );
  });

  it('drops scripts, handlers, javascript: and data: links, images from other schemes, dangerous styles', () => {
    const out = sanitizeTemplateHtml(
      '<script>alert(1)</script><p onclick="x()">t</p><a href="javascript:alert(1)">j</a><a href="data:text/html,x">d</a>' +
        '<img src="ftp://x/y.png"><img src="javascript:alert(1)"><iframe src="https://x"></iframe>' +
        '<p style="background-image: url(https://x/t.png); color: red; margin-left: expression(alert(1))">s</p><a href="//evil.example/x">p</a>',
    );
    expect(out).not.toMatch(/script|onclick|javascript|iframe|url\(|expression|data:text|ftp:|evil/);
    expect(out).toContain('<p style="color:red">s</p>');
  });

  it('keeps the variables, and the default template passes unchanged in meaning', () => {
    const clean = sanitizeTemplateHtml(DEFAULT_TEMPLATE_HTML);
    expect(clean).toContain('href="{{recoveryUrl}}"');
    expect(clean).toContain('{{contactEmail}}');
    expect(clean).toContain('Complete Your Purchase');
    expect(clean).toMatch(/<h1>/);
    expect(clean).toContain('background-color:#1976d2');
    const rendered = renderTemplateVariables(clean, {
      contactEmail: '<b>x</b>@example.com',
      recoveryUrl: 'https://shop.example.com/c?id=1&x="y"',
    });
    expect(rendered).toContain('Hi &lt;b&gt;x&lt;/b&gt;@example.com,');
    expect(rendered).toContain('href="https://shop.example.com/c?id=1&amp;x=&quot;y&quot;"');
  });

  it('adds rel=noopener to links opening a new tab', () => {
    expect(sanitizeTemplateHtml('<a href="https://x.example" target="_blank">x</a>')).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });
});
