import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { IconButton, Stack, Tooltip } from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { DateTime, type DataColumn } from '@act/ui-kit';
import { ActiveChip } from './ActiveChip';

/** A row's first action, before Edit and Delete: a link (a campaign's templates) or a button (a test send). */
export interface LeadAction {
  title: string;
  /** The accessible name; it names the row's item, so tests and screen readers tell the rows apart. */
  label: string;
  icon: ReactNode;
  to?: string;
  onClick?: () => void;
}

interface Listed {
  name: string;
  active: boolean;
  created_at: string;
}

/**
 * Status, Created and Actions (the row's lead action, Edit, Delete): the last three columns of the campaign and
 * template tables (spec §2), written once.
 */
export function statusCreatedActionsColumns<T extends Listed>(
  lead: (row: T) => LeadAction,
  onEdit: (row: T) => void,
  onDelete: (row: T) => void,
): DataColumn<T>[] {
  return [
    { key: 'status', label: 'Status', render: (row) => <ActiveChip active={row.active} /> },
    {
      key: 'created',
      label: 'Created',
      cellSx: { whiteSpace: 'nowrap' },
      render: (row) => <DateTime value={row.created_at} />,
    },
    {
      key: 'actions',
      label: 'Actions',
      align: 'right',
      cellSx: { whiteSpace: 'nowrap' },
      render: (row) => {
        const first = lead(row);
        return (
          <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
            <Tooltip title={first.title}>
              {first.to !== undefined ? (
                <IconButton component={RouterLink} to={first.to} aria-label={first.label} size="small">
                  {first.icon}
                </IconButton>
              ) : (
                <IconButton aria-label={first.label} onClick={first.onClick} size="small">
                  {first.icon}
                </IconButton>
              )}
            </Tooltip>
            <Tooltip title="Edit">
              <IconButton aria-label={`Edit ${row.name}`} onClick={() => onEdit(row)} size="small">
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title="Delete">
              <IconButton aria-label={`Delete ${row.name}`} onClick={() => onDelete(row)} size="small" color="error">
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        );
      },
    },
  ];
}
