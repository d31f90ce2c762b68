/**
 * @act/ui-kit public surface. Shared as a Module Federation singleton: contexts created here
 * (auth, toasts) are one object across the shell and every remote.
 */
export {
  apiRequest,
  fetcher,
  fetcherNullOn401,
  createFetcher,
  ApiError,
  serverMessage,
  errorMessage,
  OPERATION_SUCCESSFUL,
  DATA_RETRIEVED,
  INVALID_JSON,
} from './request';
export type { HttpMethod, FetcherOptions, SuccessFallback } from './request';
export { ApiSWRConfig, apiSWRDefaults } from './ApiSWRConfig';
export type { ApiSWRConfigProps } from './ApiSWRConfig';
export { ToastProvider, useToast, TOAST_DURATION_MS } from './Toast';
export type { ToastInput, ToastVariant } from './Toast';
export { AuthProvider, useAuth, CURRENT_USER_KEY } from './Auth';
export type { AuthContextValue } from './Auth';
export {
  Pagination,
  usePagination,
  pagesAround,
  slidingPages,
  rangeText,
  totalPagesOf,
  EMAIL_PAGE_SIZES,
  EMAIL_DEFAULT_PAGE_SIZE,
  SMS_PAGE_SIZES,
  SMS_DEFAULT_PAGE_SIZE,
} from './Pagination';
export type { PaginationProps, PaginationState, UsePaginationOptions } from './Pagination';
export { CampaignRulesFields } from './CampaignRules';
export type { CampaignRulesFieldsProps } from './CampaignRules';
export { ConfirmDialog } from './ConfirmDialog';
export type { ConfirmDialogProps } from './ConfirmDialog';
export { ErrorCard } from './ErrorCard';
export type { ErrorCardProps } from './ErrorCard';
export { Loading } from './Loading';
export { PageHeader } from './PageHeader';
export { DataTable, EmptyState, TableMessageRow } from './DataTable';
export type { DataColumn, DataRowProps, DataTableProps, DataTableSort } from './DataTable';
export { SignInForm } from './SignInForm';
export { AppProviders } from './AppProviders';
export { theme } from './theme';
export { roleLabel } from './roles';
export type { User, CurrentUser, UserRole } from '@act/contracts/src/auth';
export { StandaloneFrame } from './StandaloneFrame';
export {
  DateTime,
  NO_VALUE,
  formatCount,
  formatDate,
  formatDateTime,
  formatDateTimeFull,
  formatMoney,
  formatMoneyList,
  formatShortDate,
  formatTime,
  parseDate,
} from './format';
export type { DateFormatOptions, DateTimeProps } from './format';
// RevenuePanel is imported by path (`@act/ui-kit/src/Revenue`): it brings MUI X Charts, which the shared ui-kit
// (loaded with the sign-in page) must not carry; each remote bundles it with the page that shows it.
export type { StandaloneLink } from './StandaloneFrame';
// The webhook-signing blocks are imported by path too (`@act/ui-kit/src/WebhookSigning`): their yup rules would put
// yup (12 KB gzipped) on the sign-in page.
