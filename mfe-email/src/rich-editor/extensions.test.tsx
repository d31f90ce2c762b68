import { Editor } from '@tiptap/core';
import { editorExtensions } from './extensions';
import { INDENT_MAX } from './indent';

function editorWith(content: string) {
  return new Editor({ extensions: editorExtensions(), content });
}

describe('the editor schema keeps the URL rules (spec §5)', () => {
  it('drops links with other schemes and keeps http, https, mailto, tel and {{recoveryUrl}}', () => {
    const html = editorWith(
      '<p><a href="javascript:alert(1)">bad</a> <a href="https://ok.test">web</a> <a href="mailto:a@b.test">mail</a> ' +
        '<a href="tel:+1555">call</a> <a href="{{recoveryUrl}}" style="color:#fff;background:#2563eb">Complete Your Purchase</a> ' +
        '<a href="data:text/html,x">data</a></p>',
    ).getHTML();
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('data:text');
    expect(html).toContain('href="https://ok.test"');
    expect(html).toContain('href="mailto:a@b.test"');
    expect(html).toContain('href="tel:+1555"');
    // The default template's button: a styled link to the variable survives the editor.
    expect(html).toContain('href="{{recoveryUrl}}"');
    expect(html).toMatch(/style="color: rgb\(255, 255, 255\); background: rgb\(37, 99, 235\);?"/);
  });

  it('keeps http(s) and data:image images, drops the rest', () => {
    const html = editorWith(
      '<p>x</p><img src="https://cdn.test/a.png"><img src="data:image/png;base64,iVBORw0KGgo="><img src="javascript:alert(1)"><img src="data:text/html,x">',
    ).getHTML();
    expect(html).toContain('src="https://cdn.test/a.png"');
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('data:text');
  });

  it('refuses setImage with a disallowed URL', () => {
    const editor = editorWith('<p>x</p>');
    expect(editor.commands.setImage({ src: 'javascript:alert(1)' })).toBe(false);
    expect(editor.commands.setImage({ src: 'https://cdn.test/b.png' })).toBe(true);
  });

  it('refuses setLink with a disallowed URL', () => {
    const editor = editorWith('<p>hello</p>');
    editor.commands.selectAll();
    expect(editor.commands.setLink({ href: 'javascript:alert(1)' })).toBe(false);
    expect(editor.commands.setLink({ href: 'https://ok.test' })).toBe(true);
  });

  it('has headings 1 to 6, bold, italic, underline and strike', () => {
    const html = editorWith('<h1>a</h1><h6>b</h6><p><strong>b</strong><em>i</em><u>u</u><s>s</s></p>').getHTML();
    expect(html).toBe('<h1>a</h1><h6>b</h6><p><strong>b</strong><em>i</em><u>u</u><s>s</s></p>');
  });
});

describe('indent levels 1 to 8 (spec §9)', () => {
  it('indents paragraphs with an inline margin and stops at 8', () => {
    const editor = editorWith('<p>text</p>');
    editor.commands.setTextSelection(2);
    expect(editor.commands.indent()).toBe(true);
    expect(editor.getHTML()).toBe('<p data-indent="1" style="margin-left: 2em;">text</p>');
    for (let i = 0; i < 20; i++) editor.commands.indent();
    expect(editor.getHTML()).toContain(`data-indent="${INDENT_MAX}"`);
    expect(editor.commands.indent()).toBe(false);
    for (let i = 0; i < 20; i++) editor.commands.outdent();
    expect(editor.getHTML()).toBe('<p>text</p>');
    expect(editor.commands.outdent()).toBe(false);
  });

  it('reads stored levels back and clamps wrong ones', () => {
    expect(editorWith('<p data-indent="3">a</p>').getHTML()).toContain('data-indent="3"');
    expect(editorWith('<p data-indent="42">a</p>').getHTML()).toContain('data-indent="8"');
    expect(editorWith('<h2 style="margin-left: 4em">a</h2>').getHTML()).toContain('data-indent="2"');
  });
});

describe('the Cart block', () => {
  it('is written as the stored block, read back with its item count, inserted, set and deleted whole', () => {
    const editor = editorWith('<p>Hi</p><div data-cart-block="" data-items="5">anything</div><p>Bye</p>');
    expect(editor.getHTML()).toBe(
      '<p>Hi</p><div data-cart-block="" data-items="5">Cart: up to 5 items, the total and a button back to the checkout</div><p>Bye</p>',
    );
    // Select the block (position after the first paragraph) and change N; out-of-range values are clamped.
    editor.commands.setNodeSelection(4);
    expect(editor.isActive('cartBlock')).toBe(true);
    editor.commands.setCartBlockItems(40);
    expect(editor.getHTML()).toContain('data-items="10"');
    editor.commands.deleteSelection();
    expect(editor.getHTML()).toBe('<p>Hi</p><p>Bye</p>');
    editor.commands.setTextSelection(3);
    editor.commands.insertCartBlock();
    expect(editor.getHTML()).toContain('<div data-cart-block="" data-items="3">');
    // Inserted and selected: the toolbar's item count is the new block's.
    expect(editor.isActive('cartBlock')).toBe(true);
    expect(editor.getAttributes('cartBlock').items).toBe(3);
  });
});
