import { Extension, type CommandProps } from '@tiptap/core';

/** Spec §9: indent levels 1 to 8 (0 is "not indented"). */
export const INDENT_MAX = 8;
/** One level, in em: emails need an inline style, mail clients ignore classes and data attributes. */
export const INDENT_STEP_EM = 2;

export function clampIndent(level: number): number {
  if (!Number.isFinite(level)) return 0;
  return Math.min(INDENT_MAX, Math.max(0, Math.trunc(level)));
}

/** Reads a stored block's level: our data attribute, else the margin-left we wrote. */
export function indentOf(el: HTMLElement): number {
  const data = el.getAttribute('data-indent');
  if (data !== null) return clampIndent(Number(data));
  const margin = /^([\d.]+)em$/.exec(el.style?.marginLeft ?? '');
  return margin ? clampIndent(Math.round(Number(margin[1]) / INDENT_STEP_EM)) : 0;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    indent: {
      /** One level more on the selected paragraphs and headings (list items are nested instead). */
      indent: () => ReturnType;
      /** One level less. */
      outdent: () => ReturnType;
    };
  }
}

/**
 * A block-level `indent` attribute on paragraphs and headings, rendered as `data-indent` plus an inline
 * margin so the sent email keeps it. Inside a list the buttons nest or lift the list item instead.
 */
export const Indent = Extension.create<{ types: string[] }>({
  name: 'indent',

  addOptions() {
    return { types: ['paragraph', 'heading'] };
  },

  addGlobalAttributes() {
    return [
      {
        types: this.options.types,
        attributes: {
          indent: {
            default: 0,
            parseHTML: (el) => indentOf(el),
            renderHTML: (attrs) => {
              const level = clampIndent(Number(attrs.indent));
              return level > 0
                ? { 'data-indent': String(level), style: `margin-left: ${level * INDENT_STEP_EM}em` }
                : {};
            },
          },
        },
      },
    ];
  },

  addCommands() {
    const types = this.options.types;
    const change =
      (delta: 1 | -1) =>
      () =>
      ({ editor, tr, state, dispatch, commands }: CommandProps) => {
        if (editor.isActive('listItem')) {
          return delta > 0 ? commands.sinkListItem('listItem') : commands.liftListItem('listItem');
        }
        let changed = false;
        const { from, to } = state.selection;
        state.doc.nodesBetween(from, to, (node, pos) => {
          if (!types.includes(node.type.name)) return true;
          const next = clampIndent(Number(node.attrs.indent ?? 0) + delta);
          if (next !== node.attrs.indent) {
            // Without dispatch this is a dry run (editor.can()): report, change nothing.
            if (dispatch) tr.setNodeMarkup(pos, undefined, { ...node.attrs, indent: next });
            changed = true;
          }
          return false;
        });
        return changed;
      };
    return { indent: change(1), outdent: change(-1) };
  },

  addKeyboardShortcuts() {
    return {
      'Mod-]': () => this.editor.commands.indent(),
      'Mod-[': () => this.editor.commands.outdent(),
    };
  },
});
