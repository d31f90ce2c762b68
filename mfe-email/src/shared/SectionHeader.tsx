import { CardHeader } from '@mui/material';

/** The title row of the cards on the dashboard and settings pages. */
export function SectionHeader({ title, subheader }: { title: string; subheader?: string }) {
  return (
    <CardHeader
      title={title}
      subheader={subheader}
      sx={{ px: 3, py: 2.25 }}
      slotProps={{
        title: { variant: 'h6', component: 'h2', sx: { fontWeight: 700, fontSize: '1.05rem' } },
        subheader: { variant: 'body2', sx: { mt: 0.25 } },
      }}
    />
  );
}
