/**
 * Template placeholders in either spelling people bring from other tools: double braces and camelCase, the email
 * side's own (`{{firstName}}`, spec section 3), or single braces and snake_case, the funnel builders' and the SMS
 * side's first (`{first_name}`), and the mixes of the two (`{{first_name}}`, `{firstName}`). Both sides render every
 * spelling through this one rule; the editors offer one, `PLACEHOLDER_TOKEN`'s.
 */

/** A placeholder's name as compared: snake_case, lower case (`firstName`, `first_name`, `FirstName` → `first_name`). */
export function canonicalPlaceholder(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The spelling the editors show and insert: double braces, camelCase (`first_name` → `{{firstName}}`). */
export function placeholderToken(canonical: string): string {
  return `{{${canonical.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())}}}`;
}

/*
 * Either `{{ name }}` or `{name}`; the double-brace form may carry a fallback written in the template,
 * `{{firstName | "there"}}`, quoted with straight or typographic quotes, or with `&quot;` as an HTML editor writes a
 * quote. The name's characters, the spaces and the quoted text never overlap, so matching stays linear.
 */
const PLACEHOLDER =
  /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\|\s*(?:"([^"{}]*)"|\u201c([^\u201d{}]*)\u201d|'([^'{}]*)'|&quot;((?:[^&{}]|&(?!quot;))*)&quot;)\s*)?\}\}|\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}/g;

/**
 * Replaces each placeholder, in any spelling, by `valueOf(its canonical name, the fallback written with it)`; one
 * `valueOf` leaves undefined stays as written (an unknown name, a typo, CSS braces), so it shows in a test send
 * rather than vanishing. The fallback is the template's text as written (for HTML, still HTML text).
 */
export function replacePlaceholders(
  text: string,
  valueOf: (canonical: string, fallback: string | undefined) => string | undefined,
): string {
  return text.replace(PLACEHOLDER, (whole: string, name: string | undefined, ...rest: unknown[]) => {
    const [q1, q2, q3, q4, single] = rest as (string | undefined)[];
    const value = valueOf(canonicalPlaceholder((name ?? single)!), q1 ?? q2 ?? q3 ?? q4);
    return value === undefined ? whole : value;
  });
}

/** Whether `text` holds a placeholder, in any spelling, of one of these canonical names. */
export function usesPlaceholder(text: string, canonicals: readonly string[]): boolean {
  let found = false;
  replacePlaceholders(text, (name) => {
    if (canonicals.includes(name)) found = true;
    return undefined;
  });
  return found;
}
