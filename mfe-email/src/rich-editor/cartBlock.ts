import { Node, mergeAttributes } from '@tiptap/core';
import { NodeSelection } from '@tiptap/pm/state';
import { CART_BLOCK_DEFAULT_ITEMS, cartBlockLabel, clampCartBlockItems } from '@act/contracts/src/cart-block';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    cartBlock: {
      /** Inserts a Cart block where the cursor is (replacing a selected block). */
      insertCartBlock: (items?: number) => ReturnType;
      /** How many items the selected Cart block shows before "and K more". */
      setCartBlockItems: (items: number) => ReturnType;
    };
  }
}

/**
 * The Cart block: one unit in the document like an image (selected, dragged to another place, deleted whole), stored
 * as contracts/cart-block.ts writes it; svc-email renders the contact's cart in its place when the email is sent.
 */
export const CartBlock = Node.create({
  name: 'cartBlock',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return {
      items: {
        default: CART_BLOCK_DEFAULT_ITEMS,
        parseHTML: (el) => clampCartBlockItems(el.getAttribute('data-items')),
        renderHTML: (attrs) => ({ 'data-items': String(clampCartBlockItems(attrs.items)) }),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'div[data-cart-block]' }];
  },
  renderHTML({ node, HTMLAttributes }) {
    return ['div', mergeAttributes({ 'data-cart-block': '' }, HTMLAttributes), cartBlockLabel(clampCartBlockItems(node.attrs.items))];
  },
  addCommands() {
    return {
      insertCartBlock:
        (items = CART_BLOCK_DEFAULT_ITEMS) =>
        ({ chain }) =>
          chain()
            .insertContent({ type: this.name, attrs: { items: clampCartBlockItems(items) } })
            // The new block selected, as a picked image is: its item count shows in the toolbar at once.
            .command(({ tr }) => {
              let at = -1;
              tr.doc.nodesBetween(0, tr.selection.from, (node, pos) => {
                if (node.type.name === this.name && pos + node.nodeSize <= tr.selection.from) at = pos;
              });
              if (at >= 0) tr.setSelection(NodeSelection.create(tr.doc, at));
              return true;
            })
            .run(),
      setCartBlockItems:
        (items) =>
        ({ commands }) =>
          commands.updateAttributes(this.name, { items: clampCartBlockItems(items) }),
    };
  },
});
