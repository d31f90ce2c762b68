import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Extension, type Extensions } from '@tiptap/core';
import type { Level } from '@tiptap/extension-heading';
import { LinkBubbleMenuHandler } from 'mui-tiptap';
import { CartBlock } from './cartBlock';
import { Indent } from './indent';
import { isAllowedImageUrl, isAllowedLinkUrl } from './urls';

/** Spec §9: heading levels 1 to 6 on the campaign page. */
export const HEADING_LEVELS: Level[] = [1, 2, 3, 4, 5, 6];

/**
 * Images: http(s) and inline data URLs only (urls.ts). Pasted or loaded HTML with any other source is
 * dropped by the parser rule, so a `javascript:` or relative src never becomes part of the document.
 */
const SafeImage = Image.extend({
  parseHTML() {
    return [
      {
        tag: 'img[src]',
        getAttrs: (el) => (isAllowedImageUrl((el as HTMLElement).getAttribute('src')) ? null : false),
      },
    ];
  },
  addCommands() {
    const parent = this.parent?.();
    return {
      ...parent,
      setImage: (options) => (props) =>
        isAllowedImageUrl(options.src) && parent?.setImage ? parent.setImage(options)(props) : false,
    };
  },
});

/** Inline styles on links: email buttons are styled links, and mail clients only honour inline CSS. */
const LinkStyle = Extension.create({
  name: 'linkStyle',
  addGlobalAttributes() {
    return [
      {
        types: ['link'],
        attributes: {
          style: {
            default: null,
            parseHTML: (el) => el.getAttribute('style'),
            renderHTML: (attrs) => (attrs.style ? { style: attrs.style } : {}),
          },
        },
      },
    ];
  },
});

/**
 * The editor's schema. The starter kit's Link mark keeps `style` too, so the default template's
 * "Complete Your Purchase" button (a styled link) survives a round trip through the editor.
 */
export function editorExtensions(): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: HEADING_LEVELS },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        protocols: ['mailto', 'tel'],
        isAllowedUri: (url) => isAllowedLinkUrl(url),
        HTMLAttributes: { rel: 'noopener noreferrer', target: '_blank' },
      },
    }),
    SafeImage.configure({
      allowBase64: true,
      inline: false,
      HTMLAttributes: { style: 'max-width: 100%; height: auto;' },
    }),
    LinkStyle,
    Indent,
    CartBlock,
    LinkBubbleMenuHandler,
  ];
}
