import { Chip } from '@mui/material';

/** The Active/Inactive badge of campaigns and templates. */
export function ActiveChip({ active }: { active: boolean }) {
  return (
    <Chip
      size="small"
      label={active ? 'Active' : 'Inactive'}
      color={active ? 'success' : 'default'}
      variant={active ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600 }}
    />
  );
}
