import type { FormikProps } from 'formik';

/** TextField props bound to a formik field: value, handlers, and the yup message once touched. */
export function fieldProps<V extends object>(form: FormikProps<V>, name: keyof V & string) {
  const error = (form.touched as Record<string, unknown>)[name] && (form.errors as Record<string, unknown>)[name];
  return {
    id: name,
    name,
    value: (form.values[name] ?? '') as string,
    onChange: form.handleChange,
    onBlur: form.handleBlur,
    error: Boolean(error),
    helperText: error ? String(error) : undefined,
  };
}

/** '' → null and trimmed, for optional text fields sent to the API. */
export function optional(value: string | null | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : trimmed;
}
