import { useMemo } from 'react';
import { Box, type SxProps, type Theme } from '@mui/material';
import { renderTemplateVariables, type TemplateVariable } from '@act/contracts/src/email-api';

/** Values the previews put in place of the template variables (spec §3), in any spelling the sender accepts. */
export const SAMPLE_VARIABLES: Record<TemplateVariable, string> = {
  contactEmail: 'customer@example.com',
  firstName: 'Jane',
  recoveryUrl: 'https://example.com/cart/recover',
  unsubscribeUrl: 'https://example.com/unsubscribe',
  cartTotal: '$129.99',
  itemCount: '3',
  firstItemName: 'Classic Cotton Crew Neck T-Shirt',
  discountCode: 'SAVE10',
};

/** The contracts' rendering, the one the sender uses, with sample values. */
export function fillVariables(html: string, values: Record<TemplateVariable, string> = SAMPLE_VARIABLES): string {
  return renderTemplateVariables(html, values);
}

/**
 * The document a preview frame shows. Nothing in it can run: the frame is sandboxed with no
 * permissions (no scripts, forms, popups or same-origin access), and the CSP says the same again for
 * browsers that would honour only one of the two.
 */
export function previewDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; font-src data:">
<style>
  html,body{margin:0}
  body{padding:16px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#1f2937;overflow-wrap:anywhere}
  img{max-width:100%;height:auto}
</style></head><body>${html}</body></html>`;
}

export interface HtmlPreviewProps {
  html: string;
  /** Accessible name of the frame. */
  title: string;
  height?: number | string;
  /** Fill the variables ({{contactEmail}}, {{firstName}}, ...) with sample values (default true). */
  sample?: boolean;
  sx?: SxProps<Theme>;
}

/** Rendered template HTML, isolated in a sandboxed frame (never injected into the app's own DOM). */
export function HtmlPreview({ html, title, height = 320, sample = true, sx }: HtmlPreviewProps) {
  const srcDoc = useMemo(() => previewDocument(sample ? fillVariables(html) : html), [html, sample]);
  return (
    <Box
      component="iframe"
      title={title}
      sandbox=""
      srcDoc={srcDoc}
      loading="lazy"
      referrerPolicy="no-referrer"
      sx={{ display: 'block', width: '100%', height, border: 0, bgcolor: '#fff', ...sx }}
    />
  );
}
