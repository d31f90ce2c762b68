/** What a campaign does with a contact whose cart changed while its sequence runs. */
export type CartChangeRule = 'restart' | 'continue';

export interface ExitSettings {
  /** Default 'continue': the reminders already sent still describe the cart the shopper left. */
  onCartChange: CartChangeRule;
  /** Higher wins when a contact is in two campaigns; default 0. */
  priority: number;
}

export const EXIT_SETTINGS_DEFAULT: ExitSettings = Object.freeze({ onCartChange: 'continue', priority: 0 });

/** Where one contact stands in one campaign's sequence. */
export interface ContactFlowState {
  campaignId: number;
  /** When the contact entered this sequence: events from before it are already in what it was built from. */
  enteredAt: Date;
  /** Steps already sent (0: none yet). */
  stepsSent: number;
}

/** Something that happened to the contact while its sequence runs (purchase and opt-out are handled elsewhere). */
export type FlowEvent =
  | { kind: 'cart_changed'; at: Date }
  | { kind: 'entered_campaign'; at: Date; campaignId: number; priority: number }
  | { kind: 'completed_elsewhere'; at: Date; source?: string | null };

export type ExitDecision =
  | { action: 'continue'; reason: string }
  | { action: 'restart'; reason: string }
  | { action: 'exit'; code: 'higher_priority_campaign' | 'completed_elsewhere'; reason: string };

/**
 * What the sequence does after `event`: go on, start again from its first step, or leave. An event dated before the
 * contact entered the sequence changes nothing (the sequence already started from it).
 */
export function exitDecision(state: ContactFlowState, settings: ExitSettings, event: FlowEvent): ExitDecision {
  if (event.at.getTime() < state.enteredAt.getTime())
    return { action: 'continue', reason: `${event.kind} before the sequence began` };
  switch (event.kind) {
    case 'cart_changed':
      if (settings.onCartChange === 'restart' && state.stepsSent > 0)
        return { action: 'restart', reason: 'the cart changed: the sequence starts again from its first step' };
      return {
        action: 'continue',
        reason:
          settings.onCartChange === 'restart'
            ? 'the cart changed before the first step: the sequence goes on'
            : 'the cart changed: the campaign goes on with its next step',
      };
    case 'entered_campaign':
      if (event.campaignId !== state.campaignId && event.priority > settings.priority)
        return {
          action: 'exit',
          code: 'higher_priority_campaign',
          reason: `entered campaign ${event.campaignId}, of higher priority (${event.priority} > ${settings.priority})`,
        };
      return { action: 'continue', reason: `entered campaign ${event.campaignId}, of no higher priority` };
    case 'completed_elsewhere':
      return {
        action: 'exit',
        code: 'completed_elsewhere',
        reason: `checkout completed elsewhere${event.source ? ` (${event.source})` : ''}`,
      };
  }
}
