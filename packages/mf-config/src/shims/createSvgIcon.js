// Replaces @mui/icons-material's own `utils/createSvgIcon`, which deep-imports
// `@mui/material/SvgIcon`: a deep import is a separate shared module whose chunk repeats a large
// part of MUI (about 11 KB gzipped on the sign-in page). The root export is the shared singleton.
export { createSvgIcon as default } from '@mui/material';
