import { EXIT_SETTINGS_DEFAULT, exitDecision, type ContactFlowState } from './exit';

const enteredAt = new Date('2026-05-01T10:00:00Z');
const later = new Date('2026-05-01T11:00:00Z');
const state: ContactFlowState = { campaignId: 1, enteredAt, stepsSent: 2 };

describe('exit conditions', () => {
  it('cart changed: the campaign says restart or continue (continue by default)', () => {
    expect(exitDecision(state, EXIT_SETTINGS_DEFAULT, { kind: 'cart_changed', at: later }).action).toBe('continue');
    expect(
      exitDecision(state, { ...EXIT_SETTINGS_DEFAULT, onCartChange: 'restart' }, { kind: 'cart_changed', at: later }),
    ).toEqual({
      action: 'restart',
      reason: 'the cart changed: the sequence starts again from its first step',
    });
    // Nothing sent yet: the first step already describes the new cart.
    expect(
      exitDecision(
        { ...state, stepsSent: 0 },
        { ...EXIT_SETTINGS_DEFAULT, onCartChange: 'restart' },
        { kind: 'cart_changed', at: later },
      ).action,
    ).toBe('continue');
  });

  it('entered another campaign: leaves only for one of higher priority', () => {
    const settings = { ...EXIT_SETTINGS_DEFAULT, priority: 5 };
    expect(exitDecision(state, settings, { kind: 'entered_campaign', at: later, campaignId: 2, priority: 9 })).toEqual({
      action: 'exit',
      code: 'higher_priority_campaign',
      reason: 'entered campaign 2, of higher priority (9 > 5)',
    });
    expect(
      exitDecision(state, settings, { kind: 'entered_campaign', at: later, campaignId: 2, priority: 5 }).action,
    ).toBe('continue');
    expect(
      exitDecision(state, settings, { kind: 'entered_campaign', at: later, campaignId: 1, priority: 9 }).action,
    ).toBe('continue');
  });

  it('checkout completed elsewhere: leaves, naming the sender', () => {
    expect(
      exitDecision(state, EXIT_SETTINGS_DEFAULT, { kind: 'completed_elsewhere', at: later, source: 'shopify' }),
    ).toEqual({
      action: 'exit',
      code: 'completed_elsewhere',
      reason: 'checkout completed elsewhere (shopify)',
    });
  });

  it('an event from before the contact entered the sequence changes nothing', () => {
    const before = new Date('2026-05-01T09:00:00Z');
    expect(exitDecision(state, EXIT_SETTINGS_DEFAULT, { kind: 'completed_elsewhere', at: before }).action).toBe(
      'continue',
    );
    expect(
      exitDecision(state, { onCartChange: 'restart', priority: 0 }, { kind: 'cart_changed', at: before }).action,
    ).toBe('continue');
  });
});
