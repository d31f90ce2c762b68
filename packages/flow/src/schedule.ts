/**
 * When the step after a send is due: `delay` units after the send (the unit is a minute for SMS, an hour for email;
 * tests shrink it). Null when there is no next step: the flow ends.
 */
export function nextStepAt(sentAt: Date, next: { delay: number } | undefined, unitMs: number): Date | null {
  return next ? new Date(sentAt.getTime() + next.delay * unitMs) : null;
}

/** Of a flow's steps in order, the first one not done yet and the one after it. */
export function pendingSteps<T>(steps: readonly T[], done: (s: T) => boolean): { current?: T; following?: T } {
  const left = steps.filter((s) => !done(s));
  return { current: left[0], following: left[1] };
}
