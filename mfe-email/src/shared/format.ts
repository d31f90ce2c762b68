/** "1 minute", "30 minutes". */
export function minutes(n: number): string {
  return `${n} ${n === 1 ? 'minute' : 'minutes'}`;
}
