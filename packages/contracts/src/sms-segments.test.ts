import { SegmentedMessage } from 'sms-segments-calculator';
import { SAMPLE_CART, type MessageInput } from './message-variables';
import { fitSmsMessage, smsSegments, typicalSmsSegments } from './sms-segments';

describe('SMS segments, as carriers count them', () => {
  it('GSM-7: 160 in one, then 153 a segment; extension characters count two', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ segments: 1, encoding: 'GSM-7', units: 160 });
    expect(smsSegments('a'.repeat(161)).segments).toBe(2);
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
    expect(smsSegments('€'.repeat(80))).toEqual({ segments: 1, encoding: 'GSM-7', units: 160 });
    expect(smsSegments('€'.repeat(81)).segments).toBe(2);
    expect(smsSegments(`${'a'.repeat(158)}[`).segments).toBe(1);
    expect(smsSegments(`${'a'.repeat(159)}[`).segments).toBe(2);
  });

  it('counts every text as the library does, with or without its own path for basic GSM-7', () => {
    // A seeded generator: the same texts every run. Mostly basic GSM-7 (the path counted without the library), with
    // CR, CR LF, extension characters, accented letters outside GSM-7 and an emoji mixed into some.
    let seed = 20_261_128;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const basic = Array.from('@£$¥èéùìòÇ\nØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà');
    const other = ['\r', '\r\n', '€', '[', '~', '^', 'ł', 'ç', '😀', '\u00a0'];
    let basicOnly = 0;
    for (let n = 0; n < 2_000; n++) {
      const length = Math.floor(next() * 480);
      const mixed = next() < 0.3;
      // One kind of other character per text, so that each meets the count with basic GSM-7 alone around it.
      const extra = other[Math.floor(next() * other.length)]!;
      let text = '';
      for (let i = 0; i < length; i++) text += mixed && next() < 0.02 ? extra : basic[Math.floor(next() * basic.length)]!;
      if (!mixed) basicOnly++;
      const m = new SegmentedMessage(text);
      expect([text, smsSegments(text)]).toEqual([text, { segments: m.segmentsCount, encoding: m.encodingName, units: m.numberOfCharacters }]);
    }
    expect(basicOnly).toBeGreaterThan(500);
  });

  it('UCS-2 as soon as one character is outside GSM-7: 70 in one, then 67', () => {
    expect(smsSegments('é'.repeat(160)).encoding).toBe('GSM-7');
    expect(smsSegments(`${'a'.repeat(69)}ł`)).toEqual({ segments: 1, encoding: 'UCS-2', units: 70 });
    expect(smsSegments(`${'a'.repeat(70)}ł`).segments).toBe(2);
    expect(smsSegments(`${'a'.repeat(133)}ł`).segments).toBe(2);
    expect(smsSegments(`${'a'.repeat(134)}ł`).segments).toBe(3);
  });
});

describe('a filled-in message keeps to its template’s segments', () => {
  const template = 'Hi {{firstName}}, your {{firstItemName}} is waiting. Code {{discountCode}}: {{recoveryUrl}}';
  const link = 'https://shop.example.com/discount/SAVE10-7KQ2ZX?redirect=%2Fcheckouts%2Fc%2F0123456789abcdef';
  const input = (name: string): MessageInput => ({
    firstName: 'Ann',
    discountCode: 'SAVE10-7KQ2ZX',
    recoveryUrl: link,
    cart: { ...SAMPLE_CART, items: [{ ...SAMPLE_CART.items[0]!, name }] },
  });

  it('a typical message is sent whole', () => {
    expect(typicalSmsSegments(template).segments).toBe(1);
    const fitted = fitSmsMessage(template, input('Mug'));
    expect(fitted).toMatchObject({ shortened: false, message: `Hi Ann, your Mug is waiting. Code SAVE10-7KQ2ZX: ${link}` });
  });

  it('a long item name is cut, never the link or the code', () => {
    const long = 'Organic Cotton Oversized Hooded Sweatshirt with Kangaroo Pocket and Ribbed Cuffs';
    const fitted = fitSmsMessage(template, input(long));
    expect(fitted.shortened).toBe(true);
    expect(fitted.segments.segments).toBe(1);
    expect(fitted.message).toContain(link);
    expect(fitted.message).toContain('SAVE10-7KQ2ZX');
    const name = /your (.*) is waiting/.exec(fitted.message)![1]!;
    expect(name.endsWith('...')).toBe(true);
    expect(long.startsWith(name.slice(0, -3))).toBe(true);
    // The longest that fits: one more character would not.
    expect(fitted.message.length).toBeGreaterThan(150);
  });

  it('an item name outside GSM-7 that would turn the message into UCS-2 is cut or left out', () => {
    const fitted = fitSmsMessage(template, input('Łódź Ceramic Mug 🍵'));
    expect(fitted.segments).toMatchObject({ segments: 1, encoding: 'GSM-7' });
    expect(fitted.message).toContain(link);
    expect(fitted.message).toContain('SAVE10-7KQ2ZX');
  });

  it('a message too long even without the item name keeps its link and code whole', () => {
    const fitted = fitSmsMessage(template, { ...input('Mug'), firstName: 'x'.repeat(150) });
    expect(fitted.message).toContain(link);
    expect(fitted.message).toContain('SAVE10-7KQ2ZX');
    expect(fitted.segments.segments).toBe(2);
  });
});

describe('an item name that does not fit even cut to one character is left out without a gap', () => {
  const link = 'https://shop.example.com/checkouts/c/0123456789abcdef';
  const cart = { ...SAMPLE_CART, items: [{ ...SAMPLE_CART.items[0]!, name: 'Mug' }], total: 1250, currency: 'GBP' };
  /** A first name that makes the message without the item name exactly one full segment (160 characters). */
  const filling = (template: string): MessageInput => {
    const base = { firstName: 'A', recoveryUrl: link, cart };
    const shortest = fitSmsMessage(template, { ...base, firstName: 'A'.repeat(200) }).message;
    // Left out at 200 characters of name; the first name's length moves the message one for one.
    const firstName = 'A'.repeat(200 - (shortest.length - 160));
    return { ...base, firstName };
  };

  it('drops the space before the name with it, so the text never reads "your  (£12.50)"', () => {
    const template = 'Hi {{firstName}}, your {{firstItemName}} ({{cartTotal}}) is waiting: {{recoveryUrl}}';
    const fitted = fitSmsMessage(template, filling(template));
    expect(fitted.shortened).toBe(true);
    expect(fitted.message).not.toContain('  ');
    expect(fitted.message).toContain(`, your (£12.50) is waiting: ${link}`);
    expect(fitted.message).toHaveLength(160);
    expect(fitted.segments.segments).toBe(1);
  });

  it('drops the space after it at the start of the message, and keeps a fallback the template writes', () => {
    const atStart = '{{firstItemName}} still in your cart, {{firstName}}: {{recoveryUrl}}';
    const started = fitSmsMessage(atStart, filling(atStart));
    expect(started.message.startsWith('still in your cart, A')).toBe(true);
    expect(started.message).not.toContain('  ');
    // The fallback is shorter than any cut of the name ('E...'), so the name is left out for it.
    const withFallback = 'Hi {{firstName}}, {{firstItemName | "it"}} ({{cartTotal}}) is waiting: {{recoveryUrl}}';
    const named = { ...cart, items: [{ ...cart.items[0]!, name: 'Enamel Camping Mug' }] };
    const fitted = fitSmsMessage(withFallback, { ...filling(withFallback), cart: named });
    expect(fitted.shortened).toBe(true);
    expect(fitted.message).toContain(', it (£12.50) is waiting');
  });
});
