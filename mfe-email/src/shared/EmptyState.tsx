// Moved to the ui-kit with the shared DataTable (issue 16: one list block for every app).
export { EmptyState, TableMessageRow } from '@act/ui-kit';
