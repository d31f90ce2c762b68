import { useEffect, useMemo, useRef, useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import type { PreviewContact, PreviewContactsResponse } from '@act/contracts/src/template-preview';
import { apiRequest } from '../request';

/** The choice of a preview: a contact by id, or sample data. */
export type PreviewChoice = { contactId: number } | { sample: true };

const SAMPLE = { sample: true } as const;
type Option = PreviewContact | typeof SAMPLE;

function labelOf(o: Option): string {
  if ('sample' in o) return 'Sample data';
  const who = [o.first_name, o.email ?? o.phone].filter(Boolean).join(' · ');
  return o.has_cart ? `${who} (cart)` : who;
}

/** The request fields of a choice, for the preview and test-send routes. */
export function choiceFields(choice: PreviewChoice | null): { contact_id?: number; sample?: boolean } {
  if (!choice) return {};
  return 'sample' in choice ? { sample: true } : { contact_id: choice.contactId };
}

export interface PreviewContactPickerProps {
  /** The service's `.../preview/contacts` route. */
  endpoint: string;
  value: PreviewChoice | null;
  onChange: (choice: PreviewChoice) => void;
  /** What the search is by, for the field's hint ("email", "phone or email"). */
  searchBy: string;
  label?: string;
  disabled?: boolean;
}

/**
 * "Preview as": a contact found by the start of its address or number, or sample data. Until one is chosen it takes
 * the service's default (the newest contact with a cart), or sample data when there is no contact at all.
 */
export function PreviewContactPicker({ endpoint, value, onChange, searchBy, label = 'Preview as', disabled }: PreviewContactPickerProps) {
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<PreviewContact[]>([]);
  const [chosen, setChosen] = useState<PreviewContact | null>(null);
  // The choice as it is when an answer comes in, not as it was when its request left: one made while the first
  // answer was on its way (sample data picked at once) stays.
  const current = useRef(value);
  current.current = value;

  useEffect(() => {
    let live = true;
    const q = input.includes(' · ') || input === 'Sample data' ? '' : input.trim();
    const timer = setTimeout(() => {
      apiRequest<PreviewContactsResponse>('GET', `${endpoint}${q ? `?q=${encodeURIComponent(q)}` : ''}`)
        .then((res) => {
          if (!live) return;
          setOptions(res.contacts);
          if (current.current === null) {
            const first = res.contacts.find((c) => c.id === res.default_contact_id);
            if (first) setChosen(first);
            onChange(first ? { contactId: first.id } : SAMPLE);
          }
        })
        .catch(() => live && setOptions([]));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The default is taken once, on the first answer; later answers only refresh the options.
  }, [endpoint, input]);

  const selected: Option | null = useMemo(() => {
    if (!value) return null;
    if ('sample' in value) return SAMPLE;
    return options.find((o) => o.id === value.contactId) ?? (chosen?.id === value.contactId ? chosen : null);
  }, [value, options, chosen]);

  return (
    <Autocomplete<Option, false, false>
      size="small"
      disabled={disabled}
      options={[SAMPLE, ...options]}
      // Always controlled (null until the default is known), so the default shows once it is.
      value={selected}
      filterOptions={(o) => o}
      getOptionLabel={labelOf}
      isOptionEqualToValue={(a, b) => ('sample' in a ? 'sample' in b : !('sample' in b) && a.id === b.id)}
      onInputChange={(_e, v, reason) => reason === 'input' && setInput(v)}
      onChange={(_e, o) => {
        if (!o) return;
        if ('sample' in o) onChange(SAMPLE);
        else {
          setChosen(o);
          onChange({ contactId: o.id });
        }
      }}
      renderInput={(params) => <TextField {...params} label={label} helperText={`Search by ${searchBy}; the newest contact with a cart by default`} />}
      sx={{ minWidth: 280, flex: 1 }}
    />
  );
}
