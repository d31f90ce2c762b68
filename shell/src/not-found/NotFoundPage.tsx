import { Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { ErrorCard } from '@act/ui-kit';

export function NotFoundPage() {
  return (
    <ErrorCard
      tone="neutral"
      title="404 Page Not Found"
      message="The page you are looking for does not exist or has been moved."
      action={
        <Button variant="contained" component={RouterLink} to="/">
          Return to Dashboard
        </Button>
      }
    />
  );
}
