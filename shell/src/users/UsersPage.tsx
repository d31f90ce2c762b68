import { useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { Button, Chip, IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import AddIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import MoreIcon from '@mui/icons-material/MoreVert';
import EditIcon from '@mui/icons-material/EditOutlined';
import ResetIcon from '@mui/icons-material/LockResetOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { User } from '@act/contracts/src/auth';
import {
  apiRequest,
  ConfirmDialog,
  DataTable,
  DateTime,
  ErrorCard,
  Loading,
  PageHeader,
  roleLabel,
  serverMessage,
  useAuth,
  useToast,
  type DataColumn,
} from '@act/ui-kit';
import { UserFormDialog, type UserFormResult } from './UserFormDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';

export const USERS_KEY = '/api/users';

/** /users (admin only, spec §2 and §6). */
export default function UsersPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  if (user?.role !== 'admin') {
    return (
      <ErrorCard
        tone="neutral"
        title="Access Denied"
        message="You do not have permission to access this page. Only administrators can manage users."
        action={
          <Button variant="contained" onClick={() => navigate('/')}>
            Return to Dashboard
          </Button>
        }
      />
    );
  }
  return <UserManagement selfId={user.id} />;
}

function UserManagement({ selfId }: { selfId: number }) {
  const { toast } = useToast();
  const { data, error, isLoading, mutate } = useSWR<User[]>(USERS_KEY);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; user: User } | null>(null);
  const [form, setForm] = useState<{ user: User | null } | null>(null);
  const [resetFor, setResetFor] = useState<User | null>(null);
  const [deleteFor, setDeleteFor] = useState<User | null>(null);
  const [deleting, setDeleting] = useState(false);

  const submitForm = async (result: UserFormResult): Promise<boolean> => {
    const editing = result.mode === 'edit' && form?.user;
    try {
      if (result.mode === 'create') {
        await apiRequest('POST', USERS_KEY, result.body);
        toast({ title: 'User Created', description: `User ${result.body.username} has been created.` });
      } else if (editing) {
        await apiRequest('PATCH', `${USERS_KEY}/${form.user!.id}`, result.body);
        toast({ title: 'User Updated', description: `User ${form.user!.username} has been updated.` });
      }
      setForm(null);
      await mutate();
      return true;
    } catch (err) {
      toast(
        result.mode === 'create'
          ? {
              title: 'User Creation Failed',
              description: serverMessage(err, 'Failed to create user'),
              variant: 'destructive',
            }
          : {
              title: 'Update Failed',
              description: serverMessage(err, 'Failed to update user'),
              variant: 'destructive',
            },
      );
      return false;
    }
  };

  const submitReset = async (password: string): Promise<boolean> => {
    if (!resetFor) return false;
    try {
      await apiRequest('POST', `${USERS_KEY}/${resetFor.id}/reset-password`, { password });
      toast({ title: 'Password Reset', description: `The password of ${resetFor.username} has been reset.` });
      setResetFor(null);
      return true;
    } catch (err) {
      toast({
        title: 'Password Reset Failed',
        description: serverMessage(err, 'Failed to reset password'),
        variant: 'destructive',
      });
      return false;
    }
  };

  const confirmDelete = async () => {
    if (!deleteFor) return;
    setDeleting(true);
    try {
      await apiRequest('DELETE', `${USERS_KEY}/${deleteFor.id}`);
      toast({ title: 'User Deleted', description: `User ${deleteFor.username} has been deleted.` });
      setDeleteFor(null);
      await mutate();
    } catch (err) {
      toast({
        title: 'Deletion Failed',
        description: serverMessage(err, 'Failed to delete user'),
        variant: 'destructive',
      });
    } finally {
      setDeleting(false);
    }
  };

  const openMenu = (event: MouseEvent<HTMLElement>, user: User) => setMenu({ anchor: event.currentTarget, user });
  const closeMenu = () => setMenu(null);

  let content;
  if (isLoading) {
    content = <Loading label="Loading users" />;
  } else if (error) {
    content = (
      <ErrorCard
        title="Error Loading Users"
        message={
          error instanceof Error && error.message ? error.message : 'An unexpected error occurred while loading users.'
        }
        onRetry={() => void mutate()}
      />
    );
  } else {
    const users = Array.isArray(data) ? data : [];
    const columns: DataColumn<User>[] = [
      {
        key: 'username',
        label: 'Username',
        cellSx: { fontWeight: 600 },
        render: (u) => (
          <>
            {u.username}
            {u.id === selfId && (
              <Chip size="small" label="You" variant="outlined" sx={{ ml: 1, height: 20, fontSize: 11 }} />
            )}
          </>
        ),
      },
      { key: 'full_name', label: 'Full Name', render: (u) => u.full_name || '—' },
      { key: 'email', label: 'Email', render: (u) => u.email || '—' },
      {
        key: 'role',
        label: 'Role',
        render: (u) => (
          <Chip size="small" label={roleLabel(u.role)} color={u.role === 'admin' ? 'primary' : 'default'} />
        ),
      },
      { key: 'created', label: 'Created', render: (u) => <DateTime value={u.created_at} /> },
      {
        key: 'actions',
        label: 'Actions',
        align: 'right',
        render: (u) => (
          <IconButton aria-label={`Actions for ${u.username}`} onClick={(e) => openMenu(e, u)} size="small">
            <MoreIcon fontSize="small" />
          </IconButton>
        ),
      },
    ];
    content = (
      <DataTable
        ariaLabel="Users"
        size="medium"
        columns={columns}
        rows={users}
        rowKey={(u) => u.id}
        rowProps={() => ({ hover: true })}
        empty="No users"
      />
    );
  }

  return (
    <>
      <PageHeader
        title="User Management"
        subtitle="Create accounts, change roles and reset passwords."
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ user: null })}>
            Add User
          </Button>
        }
      />
      {content}

      {/* Opens leftwards from the row's button, which sits at the right edge: never past the screen's edge. */}
      <Menu
        anchorEl={menu?.anchor}
        open={Boolean(menu)}
        onClose={closeMenu}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          onClick={() => {
            setForm({ user: menu!.user });
            closeMenu();
          }}
        >
          <ListItemIcon>
            <EditIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>Edit user</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            setResetFor(menu!.user);
            closeMenu();
          }}
        >
          <ListItemIcon>
            <ResetIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>Reset password</ListItemText>
        </MenuItem>
        <MenuItem
          // Spec §4: an admin cannot delete themselves (the item is disabled on their own row).
          disabled={menu?.user.id === selfId}
          onClick={() => {
            setDeleteFor(menu!.user);
            closeMenu();
          }}
          sx={{ color: 'error.main' }}
        >
          <ListItemIcon>
            <DeleteIcon fontSize="small" color="error" />
          </ListItemIcon>
          <ListItemText>Delete user</ListItemText>
        </MenuItem>
      </Menu>

      <UserFormDialog
        open={Boolean(form)}
        user={form?.user ?? null}
        isSelf={form?.user?.id === selfId}
        onClose={() => setForm(null)}
        onSubmit={submitForm}
      />
      <ResetPasswordDialog user={resetFor} onClose={() => setResetFor(null)} onSubmit={submitReset} />
      <ConfirmDialog
        open={Boolean(deleteFor)}
        title="Delete User"
        description={
          <>
            Are you sure you want to delete the user <strong>{deleteFor?.username}</strong>? This action cannot be
            undone.
          </>
        }
        confirmLabel="Delete"
        destructive
        loading={deleting}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleteFor(null)}
      />
    </>
  );
}
