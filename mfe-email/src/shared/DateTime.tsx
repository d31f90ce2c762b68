import { formatDateTime, formatDateTimeFull } from './format';

/** A timestamp as short local text, with the full date and seconds on hover. */
export function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  return (
    <time dateTime={value} title={formatDateTimeFull(value)}>
      {formatDateTime(value)}
    </time>
  );
}
