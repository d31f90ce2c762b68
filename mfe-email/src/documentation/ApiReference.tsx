import SwaggerUI from 'swagger-ui-react';
import swaggerCss from 'swagger-ui-react/swagger-ui.css?raw';
import { Box } from '@mui/material';

/** Where the gateway serves the merged document (docs/api.md). */
export const API_DOCUMENT_URL = '/api/openapi.json';

/**
 * The API reference tab: Swagger UI over the gateway's document. Loaded on its own (DocumentationPage imports it
 * lazily), so its few hundred kilobytes are fetched when the tab is opened, never on the first load; its styles come
 * with it, as text, since the remotes have no CSS pipeline.
 */
export default function ApiReference() {
  return (
    <Box
      sx={{
        mx: { xs: -2, md: -4 },
        '& .swagger-ui .info': { my: 2 },
        '& .swagger-ui .scheme-container': { boxShadow: 'none', p: 0 },
      }}
    >
      <style>{swaggerCss}</style>
      <SwaggerUI
        url={API_DOCUMENT_URL}
        docExpansion="list"
        defaultModelsExpandDepth={0}
        deepLinking={false}
        tryItOutEnabled={false}
      />
    </Box>
  );
}
