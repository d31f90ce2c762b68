/** Spec §6: roles are user (default) and admin, shown as 'Administrator'; anything else reads 'User'. */
export function roleLabel(role: string | null | undefined): string {
  return role === 'admin' ? 'Administrator' : 'User';
}
